import type { ParticipantKey } from './messages';
import type { CreateSessionInput } from './request';

/** The two ways a participant proves who they are: a KBA quiz, or an ID check with a selfie. */
export type IdentityMethod = 'kba' | 'biometrics';

/**
 * Which check the session asks of a participant. Signers: their `authentication_type`, `kba` when the
 * request names none (a notarial act with no identity proofing must be asked for, never defaulted to).
 * Witnesses: an ID check when `need_id_auth` (invited) or `service_witness_id_auth_required` (network).
 */
export type AskedCheck = IdentityMethod | 'skip' | 'none';

export const DEFAULT_SIGNER_CHECK: IdentityMethod = 'kba';
export const WITNESS_CHECK: IdentityMethod = 'biometrics';

export function checkAskedOf(participant: {
  role: 'signer' | 'witness';
  details: Record<string, unknown>;
  isNetworkWitness: boolean;
  serviceWitnessIdAuthRequired: boolean;
}): AskedCheck {
  if (participant.role === 'signer') {
    const asked = participant.details.authentication_type;
    return asked === 'kba' || asked === 'biometrics' || asked === 'skip' ? asked : DEFAULT_SIGNER_CHECK;
  }
  if (participant.isNetworkWitness) return participant.serviceWitnessIdAuthRequired ? WITNESS_CHECK : 'none';
  return participant.details.need_id_auth === true ? WITNESS_CHECK : 'none';
}

/** The participants a new session must see verified before they are admitted, in the workflow's terms. */
export function identityRequiredOf(input: CreateSessionInput): ParticipantKey[] {
  const invited = input.witnesses?.invited_witness_details ?? [];
  const network = input.witnesses?.number_of_service_witnesses ?? 0;
  const signers = input.all_signers
    .map((signer, index) => ({ index, asked: checkAskedOf(signerFacts(signer)) }))
    .filter((s) => s.asked !== 'skip')
    .map((s) => ({ role: 'signer' as const, index: s.index }));
  const invitedWitnesses = invited
    .map((w, index) => ({ index, needs: w.need_id_auth === true }))
    .filter((w) => w.needs)
    .map((w) => ({ role: 'witness' as const, index: w.index }));
  // Network witnesses take the places after the invited ones.
  const networkWitnesses = input.witnesses?.service_witness_id_auth_required
    ? Array.from({ length: network }, (_, i) => ({ role: 'witness' as const, index: invited.length + i }))
    : [];
  return [...signers, ...invitedWitnesses, ...networkWitnesses];
}

/** The signers the account asked no identity check of (`authentication_type: skip`). */
export function waivedSignersOf(input: CreateSessionInput): ParticipantKey[] {
  return input.all_signers
    .map((signer, index) => ({ index, asked: checkAskedOf(signerFacts(signer)) }))
    .filter((s) => s.asked === 'skip')
    .map((s) => ({ role: 'signer' as const, index: s.index }));
}

const signerFacts = (signer: { authentication_type?: string }) => ({
  role: 'signer' as const,
  details: { authentication_type: signer.authentication_type },
  isNetworkWitness: false,
  serviceWitnessIdAuthRequired: false,
});
