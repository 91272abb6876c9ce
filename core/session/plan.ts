import type { DeliveryMode, NotaryRequest, ParticipantKey } from './messages';
import type { CreateSessionInput } from './request';
import { identityRequiredOf, waivedSignersOf } from './identityChecks';

/**
 * What the session was asked for at creation, fixed for its life: built once by `planOf`, kept in the
 * session's row and passed to its workflow, so the API and the workflow judge by the same plan.
 */
export interface SessionPlan {
  holdInvitesUntilPretagged: boolean;
  /** Epoch ms of notarize_later's session_timing. */
  startAt?: number;
  notary: NotaryRequest;
  deliveryMode: DeliveryMode;
  /** The signer whose presence sends an on-demand session to the network (the host in same-device mode). */
  primarySignerIndex: number;
  /** Same-device signing ("all"): the host, on whose device (and camera) every signer signs. */
  sameDeviceHost?: number;
  /** Witnesses (invited and from the network) who must have joined before the session starts. */
  witnessesRequired: number;
  /** Of them, the network's: their places are filled once the signer waits. */
  serviceWitnesses: number;
  /** Participants who must pass identity verification before they are admitted. */
  identityRequired: readonly ParticipantKey[];
  /**
   * A live act's signers the account asked no check of (`skip`): the notary identifies them in the session
   * (personal knowledge, a credible witness) before they sign. Absent from plans kept before it existed.
   */
  notaryIdentifies?: readonly ParticipantKey[];
  /**
   * A test-mode account's session: the whole lifecycle without media, its documents marked as no
   * notarial act. Every other session is a live act, held in a media room and recorded.
   */
  testMode: boolean;
}

/** The signer who hosts same-device signing: the one marked is_shared_device_owner, else the first. */
export function hostIndexOf(input: Pick<CreateSessionInput, 'all_signers'>): number {
  return Math.max(
    0,
    input.all_signers.findIndex((s) => s.is_shared_device_owner === true),
  );
}

/** The plan of a validated create request, with the team notary it names (null: the on-demand network). */
export function planOf(
  input: CreateSessionInput,
  notaryMemberId: string | null,
  testMode: boolean,
): SessionPlan {
  const serviceWitnesses = input.witnesses?.number_of_service_witnesses ?? 0;
  const state = input.state_specific_notary;
  const sameDevice = input.session_configurations?.same_device_signing_mode === 'all';
  return {
    holdInvitesUntilPretagged: input.send_invite_after_pretagging,
    startAt:
      input.notarization_timing_type === 'notarize_later' ? Date.parse(input.session_timing!) : undefined,
    notary: notaryMemberId ? { kind: 'team', memberId: notaryMemberId, state } : { kind: 'network', state },
    deliveryMode: input.final_documents_delivery_mode,
    primarySignerIndex: sameDevice ? hostIndexOf(input) : 0,
    ...(sameDevice ? { sameDeviceHost: hostIndexOf(input) } : {}),
    witnessesRequired: (input.witnesses?.invited_witness_details?.length ?? 0) + serviceWitnesses,
    serviceWitnesses,
    identityRequired: identityRequiredOf(input),
    notaryIdentifies: testMode ? [] : waivedSignersOf(input),
    testMode,
  };
}
