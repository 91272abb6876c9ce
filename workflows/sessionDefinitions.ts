import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';

/**
 * The session's contract with the outside world: its states, its input, and the messages the API
 * sends it. Pure definitions, shared by the workflow and the API.
 */

export const SESSION_STATUSES = [
  'awaiting_pretag',
  'scheduled',
  'awaiting_notary',
  'ready',
  'in_progress',
  'completed',
  'expired',
  'cancelled',
] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const FINAL_STATUSES: readonly SessionStatus[] = ['completed', 'expired', 'cancelled'];
/** Statuses in which participants can join through their signing links. */
export const OPEN_STATUSES: readonly SessionStatus[] = ['awaiting_notary', 'ready', 'in_progress'];
/** Statuses in which documents can still be added. */
export const EDITABLE_STATUSES: readonly SessionStatus[] = [
  'awaiting_pretag',
  'scheduled',
  'awaiting_notary',
  'ready',
];

/** `failed`: a document could not be notarized; an operator's `retry-finalization` takes it back to `pending`. */
export const DOCUMENTS_STATUSES = ['pending', 'held', 'released', 'failed'] as const;
export type DocumentsStatus = (typeof DOCUMENTS_STATUSES)[number];

export type DeliveryMode = 'immediately' | 'notary_manual';

export type NotaryRequest = { kind: 'team'; memberId: string } | { kind: 'network'; state?: string };

export interface SessionWorkflowInput {
  sessionId: string;
  /** The PostgreSQL transaction (xid8) that writes the session's rows: the workflow asks whether it committed. */
  transactionId?: string;
  accountId: string;
  notarizationId: string | null;
  /** notarize_later: the session opens at this instant (ISO 8601). */
  startAt?: string;
  /** auto_expire_session_on: an unfinished session expires at this instant (ISO 8601). */
  expiresAt?: string;
  holdInvitesUntilPretagged: boolean;
  deliveryMode: DeliveryMode;
  notary: NotaryRequest;
}

export interface ParticipantRef {
  role: 'signer' | 'witness';
  index: number;
  email: string;
}

export interface SessionSnapshot {
  status: SessionStatus;
  documentsStatus: DocumentsStatus;
  notaryAssigned: boolean;
  joined: ParticipantRef[];
}

/** An e-mail the receiving server refused for good, reported with the participant it was for. */
export interface BouncedMail {
  kind: 'invitation' | 'completion';
  role: 'signer' | 'witness';
  index: number;
  email: string;
  reason: string;
}

export interface ActionResult {
  status: SessionStatus;
  documentsStatus: DocumentsStatus;
}

/** The notary actions an integrator or team member calls (`POST /sessions/{id}/{action}`). */
export type NotaryActionName = 'pretagged' | 'start' | 'complete' | 'release_documents' | 'cancel';

/**
 * Whether the session is already where the action leads, or past it. A retried action whose first answer was lost
 * (a worker died, a deadline passed) then answers with the session's state rather than a 409: the
 * action happened. `pretagged` has no such state to recognise it by, so it is never "already applied".
 */
export function actionAlreadyApplied(action: NotaryActionName, state: ActionResult): boolean {
  switch (action) {
    case 'start':
      // A completed session was started: its recorded state may show either while it catches up.
      return state.status === 'in_progress' || state.status === 'completed';
    case 'complete':
      return state.status === 'completed';
    case 'release_documents':
      return state.documentsStatus === 'released';
    case 'cancel':
      return state.status === 'cancelled';
    case 'pretagged':
      return false;
  }
}

export const participantJoinedSignal = defineSignal<[ParticipantRef]>('participantJoined');

export const pretaggedUpdate = defineUpdate<ActionResult>('pretagged');
export const startUpdate = defineUpdate<ActionResult>('start');
export const completeUpdate = defineUpdate<ActionResult>('complete');
export const releaseDocumentsUpdate = defineUpdate<ActionResult>('releaseDocuments');
export const cancelUpdate = defineUpdate<ActionResult, [{ reason?: string }]>('cancel');
/** The API adds documents only while this accepts: the workflow is the judge of the session's state. */
export const addDocumentsUpdate = defineUpdate<ActionResult, [{ documentIds: string[] }]>('addDocuments');

/** The operator's retry of documents that could not be notarized (admin CLI `retry-finalization`). */
export const retryFinalizationUpdate = defineUpdate<ActionResult>('retryFinalization');

export const snapshotQuery = defineQuery<SessionSnapshot>('snapshot');

export function workflowIdOf(sessionId: string): string {
  return `session-${sessionId}`;
}
