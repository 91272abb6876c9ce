import type { SessionStatus } from '../../core/session/messages';
import { checkAskedOf, type AskedCheck } from '../../core/session/identityChecks';
import type { ParticipantRecord } from '../reads/participantLookup';
import type { IdentitySubject } from './providers';

/** A participant as identity proofing sees them: who they are, what is asked of them, their session. */
export interface IdentityParticipant {
  participantId: string;
  sessionId: string;
  workflowId: string;
  sessionStatus: SessionStatus;
  role: 'signer' | 'witness';
  index: number;
  email: string;
  asked: AskedCheck;
  subject: IdentitySubject;
  /** Joined, or (same-device signing) their host has: checks come after joining. */
  present: boolean;
}

export function identityParticipantOf(row: ParticipantRecord): IdentityParticipant {
  const details = row.details ?? {};
  const str = (key: string) =>
    typeof details[key] === 'string' && details[key] ? (details[key] as string) : null;
  return {
    participantId: row.participant_id,
    sessionId: row.session_id,
    workflowId: row.workflow_id,
    sessionStatus: row.status,
    role: row.role,
    index: row.index,
    email: row.email,
    asked: checkAskedOf({
      role: row.role,
      details,
      isNetworkWitness: row.network_witness_id !== null,
      serviceWitnessIdAuthRequired: row.witness_auth,
    }),
    subject: {
      firstName: row.first_name,
      middleName: str('middle_name'),
      lastName: row.last_name,
      email: row.email,
      address: str('address') ?? str('witnessAdressLine1'),
      city: str('city'),
      state: str('state') ?? str('witnessAddressState'),
      zip: str('zip'),
      phone: str('contact_details') ?? str('phoneNumber'),
    },
    present:
      row.joined_at !== null ||
      (row.role === 'signer' && row.same_device_signing_mode === 'all' && row.host_joined),
  };
}
