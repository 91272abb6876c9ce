import type { BouncedMail, CancelledBy, IdentityOutcome, ParticipantRef } from './messages';
import type { RenditionKind } from './media';
import type { SignatureKind } from './signing';

/** Session events delivered to webhooks (contract §5). */
export const EVENT_NAMES = [
  'session_created',
  'invites_sent',
  'notary_assigned',
  'join_session',
  'session_started',
  'session_completed',
  'documents_released',
  'session_expired',
  'session_cancelled',
  'document_added',
  // Beyond the contract's list: failures an integrator must act on (see the OpenAPI decisions).
  'email_bounced',
  'documents_failed',
  // The on-demand network: a notary who accepted and did not start was released; a network witness
  // was assigned.
  'notary_released',
  'witness_assigned',
  // Identity proofing of participants: a pass, a failed quiz or ID check, and a lockout after the
  // last allowed attempt.
  'identity_verified',
  'kba_failed',
  'id_check_failed',
  'participant_locked_out',
  // The live act: its room's recording (one segment per room: a media server restart opens the next),
  // who is on camera in it, and the recording kept as the act's evidence.
  'recording_started',
  'recording_interrupted',
  'participant_connected',
  'participant_disconnected',
  'recording_available',
  'recording_failed',
  // What is made from the evidence afterwards, outside the session's course (the composed grid).
  'rendition_available',
  'rendition_failed',
  // The signers' part of the act: each application at a place, a participant who applied at all of
  // theirs, and the notary's change of a document's places.
  'signature_applied',
  'signer_completed',
  'places_changed',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

type IdentityMethod = IdentityOutcome['method'];
/** The notary the session has: a team member named at creation, or a network notary who accepted. */
export interface EventNotary {
  email: string;
  name: string;
  source: 'team' | 'network';
}
type NoData = Record<string, never>;

/** What each event's `data` holds (the webhook body's `data`; src/webhooks/eventSchemas.ts documents it). */
export interface EventData {
  session_created: NoData;
  invites_sent: NoData;
  notary_assigned: { notary: EventNotary };
  join_session: ParticipantRef;
  session_started: NoData;
  session_completed: NoData;
  documents_released: NoData;
  session_expired: NoData;
  /** `reason`: the one the notary or integrator gave, if any. */
  session_cancelled: { reason?: string; cancelled_by: CancelledBy };
  document_added: { document_ids: string[] };
  email_bounced: BouncedMail;
  documents_failed: { documents: Array<{ document_id: string; reason: string }> };
  notary_released: { notary: EventNotary };
  /** `replaces`: the e-mail of the network witness who left the network and whose place this was. */
  witness_assigned: ParticipantRef & { role: 'witness'; name: string; replaces?: string };
  identity_verified: ParticipantRef & { method: IdentityMethod; attempt: number };
  kba_failed: ParticipantRef & {
    attempt: number;
    correct?: number;
    total?: number;
    reasons: string[];
    retake_until?: string;
  };
  id_check_failed: ParticipantRef & { attempt: number; reasons: string[]; retake_until?: string };
  participant_locked_out: ParticipantRef & { method: IdentityMethod; locked_until: string };
  recording_started: { segment: number };
  recording_interrupted: { segment: number; reason: string };
  participant_connected: InTheRoom;
  participant_disconnected: InTheRoom;
  recording_available: { sha256: string; duration_seconds: number; size_bytes: number };
  recording_failed: { reason: string };
  rendition_available: {
    kind: RenditionKind;
    sha256: string;
    duration_seconds: number;
    size_bytes: number;
  };
  rendition_failed: { kind: RenditionKind; reason: string };
  signature_applied: {
    role: 'signer' | 'witness';
    index: number;
    document_id: string;
    place_id: string;
    kind: SignatureKind;
  };
  signer_completed: { role: 'signer' | 'witness'; index: number };
  places_changed: { document_id: string; added: string[]; moved: string[]; removed: string[] };
}

/** Someone in the live room: the notary, or a participant by role and index. */
export interface InTheRoom {
  role: 'notary' | 'signer' | 'witness';
  index: number | null;
  segment: number;
  /** When the media server saw it (ISO 8601): the recording's intervals of presence are measured by it. */
  at: string;
}

/** The arguments after the event's name: its data, none for an event that carries none. */
export type EventArgs<E extends EventName> = EventData[E] extends NoData ? [] : [data: EventData[E]];
