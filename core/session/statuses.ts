import type { DocumentsStatus, SessionStatus } from './messages';
import type { SessionPlan } from './plan';
import { ALLOWED, refuse, type Verdict } from './verdicts';

/** The session's statuses and documents statuses: which are final, and every move between them. */
export const FINAL_STATUSES: readonly SessionStatus[] = ['completed', 'expired', 'cancelled'];
/** Statuses in which participants can join through their signing links. */
export const OPEN_STATUSES: readonly SessionStatus[] = ['awaiting_notary', 'ready', 'in_progress'];
/** Statuses before the notarial act begins: documents can still be added, network witnesses replaced. */
export const BEFORE_THE_ACT: readonly SessionStatus[] = [
  'awaiting_pretag',
  'scheduled',
  'awaiting_notary',
  'ready',
];

/** How long a caller waits for the service to find or record a notary before asking again. */
export const NOTARY_WAIT_RETRY_SECONDS = 5;

const UNFINISHED_EXITS: readonly SessionStatus[] = ['cancelled', 'expired'];

/** Every move the main flow makes; staying in a state (re-recording it) is always allowed. */
export const TRANSITIONS: Readonly<Record<SessionStatus, readonly SessionStatus[]>> = {
  awaiting_pretag: ['scheduled', 'awaiting_notary', 'ready', ...UNFINISHED_EXITS],
  scheduled: ['awaiting_notary', 'ready', ...UNFINISHED_EXITS],
  awaiting_notary: ['ready', ...UNFINISHED_EXITS],
  // back to awaiting_notary: a network notary who accepted and did not start is released.
  ready: ['in_progress', 'awaiting_notary', ...UNFINISHED_EXITS],
  in_progress: ['completed', ...UNFINISHED_EXITS],
  completed: [],
  expired: [],
  cancelled: [],
};

export const DOCUMENTS_TRANSITIONS: Readonly<Record<DocumentsStatus, readonly DocumentsStatus[]>> = {
  pending: ['held', 'released', 'failed'],
  held: ['released'],
  failed: ['pending'],
  released: [],
};

/** Throws on a move the rules do not have: a bug in the flow, never a caller's error. */
export function assertTransition(from: SessionStatus, to: SessionStatus): void {
  if (from !== to && !TRANSITIONS[from].includes(to))
    throw new Error(`session cannot move from ${from} to ${to}`);
}

export function assertDocumentsTransition(from: DocumentsStatus, to: DocumentsStatus): void {
  if (from !== to && !DOCUMENTS_TRANSITIONS[from].includes(to))
    throw new Error(`documents cannot move from ${from} to ${to}`);
}

export const isFinal = (status: SessionStatus) => FINAL_STATUSES.includes(status);

/**
 * Whether the session's workflow has nothing left to do, so the state it recorded is its last and the
 * machine can judge on it without asking the workflow: a final status, and for a completed session its
 * documents out. Statuses only move forward, so a recorded copy that lags can say "not ended" for an
 * ended session, never the reverse.
 */
export function hasEnded({
  status,
  documentsStatus,
}: {
  status: SessionStatus;
  documentsStatus: DocumentsStatus;
}) {
  return isFinal(status) && (status !== 'completed' || documentsStatus === 'released');
}

/**
 * The state a session opens in once invitations are out and its scheduled time has come: a named team
 * notary is known at creation, so such a session is ready at once; the network must first find one.
 */
export function openingStatus(plan: SessionPlan): SessionStatus {
  return plan.notary.kind === 'team' ? 'ready' : 'awaiting_notary';
}

/** The state the API records with the session and the workflow starts in, so both agree from the first moment. */
export function initialStatus(plan: SessionPlan, now: number): SessionStatus {
  if (plan.holdInvitesUntilPretagged) return 'awaiting_pretag';
  if (plan.startAt !== undefined && plan.startAt > now) return 'scheduled';
  return openingStatus(plan);
}

/** The window in which the notary changes places, asked by the route's first check and by the workflow. */
export function judgePlacesWindow(status: SessionStatus): Verdict {
  return status === 'ready' || status === 'in_progress'
    ? ALLOWED
    : refuse(
        'not_now',
        `Places can be changed only while the session is ready or in progress: it is ${status}`,
      );
}
