/**
 * The session's rules, as pure and deterministic code: its first state, the moves between states, and
 * for every actor and request whether the session allows it now, and why not. The workflow's validators
 * and main flow ask it; so does the API, for who may act and for sessions whose workflow has closed.
 * Nothing here reads a clock, the database or Temporal: callers pass what it judges.
 */
import type {
  DocumentsStatus,
  Joiner,
  NotaryActionName,
  ParticipantKey,
  ParticipantRef,
  SessionStatus,
} from './messages';
import type { SessionPlan } from './plan';
import type { MediaIdentity } from './media';
import {
  BEFORE_THE_ACT,
  isFinal,
  judgePlacesWindow,
  NOTARY_WAIT_RETRY_SECONDS,
  OPEN_STATUSES,
} from './statuses';
import { OPENING_DOCUMENTS, signingTally, type SigningProgress } from './signing';
import { ALLOWED, ALREADY_DONE, refuse, type Verdict } from './verdicts';

export type { Verdict } from './verdicts';

/** What the session is now. */
export interface SessionState {
  status: SessionStatus;
  documentsStatus: DocumentsStatus;
  joined: readonly ParticipantRef[];
  /** Participants whose identity check passed. */
  verified: readonly ParticipantKey[];
  /** A live act's room is open and records the notary and a signer on camera (core/session/media.ts). */
  recordingRunning: boolean;
  /** Who is on camera in a live act's room open now; none outside one. */
  onCamera?: readonly MediaIdentity[];
  /** The places to sign and those applied; undefined until the act starts and its places are read. */
  signing?: SigningProgress;
}

export type SessionRequest = NotaryActionName | 'add_documents' | 'retry_finalization' | 'edit_places';

export type Actor =
  | { kind: 'account' }
  | { kind: 'member'; role: 'admin' | 'notary' | 'pretagger'; memberId: string }
  | { kind: 'network_notary'; notaryId: string };

/** Who the session's notary is: a member of the account's team, or a notary of the network. */
export interface AssignedNotary {
  memberId: string | null;
  networkNotaryId: string | null;
}

/** What a network notary does on a session assigned to them; cancelling stays the integrator's. */
const NETWORK_NOTARY_REQUESTS: readonly SessionRequest[] = [
  'pretagged',
  'start',
  'complete',
  'release_documents',
  'edit_places',
];

/**
 * Contract §2: a notary acts on sessions assigned to them, a pretagger only marks pretagged, an admin
 * does all; a network notary does the notary's part of the sessions they accepted.
 */
export function judgeActor(actor: Actor, assigned: AssignedNotary, request: SessionRequest): Verdict {
  if (actor.kind === 'account') return ALLOWED;
  if (actor.kind === 'network_notary')
    return assigned.networkNotaryId === actor.notaryId && NETWORK_NOTARY_REQUESTS.includes(request)
      ? ALLOWED
      : refuse('forbidden', 'This notary may not do this on this session');
  if (actor.role === 'admin') return ALLOWED;
  const mayAct = actor.role === 'pretagger' ? request === 'pretagged' : assigned.memberId === actor.memberId;
  return mayAct ? ALLOWED : refuse('forbidden', 'This team member may not do this on this session');
}

const sameParticipant = (a: ParticipantKey) => (b: ParticipantKey) =>
  a.role === b.role && a.index === b.index;

/** Whether the participant has passed the identity check the session asks of them (or is asked none). */
export function identityEstablished(state: SessionState, plan: SessionPlan, who: ParticipantKey): boolean {
  return !plan.identityRequired.some(sameParticipant(who)) || state.verified.some(sameParticipant(who));
}

/**
 * Whether the session's primary signer (or same-device host) is waiting: joined and, where asked,
 * identity established. An on-demand session then asks the network, so no notary waits on a quiz.
 */
export function signerIsWaiting(state: SessionState, plan: SessionPlan): boolean {
  const primary = { role: 'signer' as const, index: plan.primarySignerIndex };
  return state.joined.some(sameParticipant(primary)) && identityEstablished(state, plan, primary);
}

/**
 * When the notary counts as late for an admitted participant: the session has not started `lateAfterMs`
 * after they were admitted, or after a scheduled session opened, whichever is later; undefined while the
 * session waits for no notary.
 */
export function notaryLateAt(
  status: SessionStatus,
  admittedAt: number,
  opensAt: number | undefined,
  lateAfterMs: number,
): number | undefined {
  if (status !== 'awaiting_notary' && status !== 'ready') return undefined;
  return Math.max(admittedAt, opensAt ?? 0) + lateAfterMs;
}

/** Whether an identity check's outcome can be recorded: not after the session ended, and each check once. */
export function judgeIdentityOutcome(state: SessionState, alreadyRecorded: boolean): Verdict {
  if (alreadyRecorded) return ALREADY_DONE;
  return isFinal(state.status) ? refuse('not_now', `Session has ended: it is ${state.status}`) : ALLOWED;
}

/**
 * A network notary's answer to an offer, accept or decline: allowed while the session's open offer is
 * theirs; an accept is `already_done` once they are its notary (a retried accept).
 */
export function judgeOfferAnswer(
  state: SessionState,
  offer: { openTo: string | undefined; assignedTo: string | undefined },
  notaryId: string,
  answer: 'accept' | 'decline',
): Verdict {
  if (answer === 'accept' && offer.assignedTo === notaryId && state.status !== 'awaiting_notary')
    return ALREADY_DONE;
  if (state.status === 'awaiting_notary' && offer.openTo === notaryId) return ALLOWED;
  return refuse('not_now', 'This session is no longer offered to you');
}

/** Whether the session allows `request` now, given what it is and what it was asked for. */
export function judgeRequest(
  state: SessionState,
  plan: SessionPlan,
  request: SessionRequest,
  now: number,
): Verdict {
  const { status, documentsStatus } = state;
  switch (request) {
    case 'pretagged':
      return status === 'awaiting_pretag' ? ALLOWED : refuse('not_now', 'Session is not awaiting pretagging');
    case 'start':
      if (status === 'in_progress' || status === 'completed') return ALREADY_DONE;
      if (status !== 'ready')
        return refuse(
          'not_now',
          `Session cannot be started while ${status}${waitingFor(state, plan, now)}`,
          retryAfter(state, plan, now),
        );
      if (!state.joined.some((p) => p.role === 'signer'))
        return refuse('not_now', 'Session cannot be started before a signer has joined');
      if (witnessesJoined(state) < plan.witnessesRequired)
        return refuse(
          'not_now',
          `Session cannot be started before its witnesses have joined (${witnessesJoined(state)} of ${plan.witnessesRequired})`,
        );
      return identityRefusal(state, plan) ?? ALLOWED;
    case 'complete':
      if (status === 'completed') return ALREADY_DONE;
      if (status !== 'in_progress') return refuse('not_now', `Session cannot be completed while ${status}`);
      // A live act without its recording, or before its signers signed, would be void; a test-mode
      // session has no media, and its unsigned places are stamped as test signatures.
      if (plan.testMode) return ALLOWED;
      if (!state.recordingRunning) return refuse('not_now', unrecordedAct(state));
      return signingRefusal(state) ?? ALLOWED;
    case 'release_documents':
      if (documentsStatus === 'released') return ALREADY_DONE;
      // A release while the documents are still being finalized is the notary's decision: it is
      // recorded, and the documents go out when they are ready.
      return status === 'completed'
        ? ALLOWED
        : refuse('not_now', `Documents cannot be released while the session is ${status}`);
    case 'cancel':
      if (status === 'cancelled') return ALREADY_DONE;
      return isFinal(status) ? refuse('not_now', `Session cannot be cancelled while ${status}`) : ALLOWED;
    case 'add_documents':
      return BEFORE_THE_ACT.includes(status)
        ? ALLOWED
        : refuse('not_now', `Documents cannot be added while ${status}`);
    case 'edit_places':
      return judgePlacesWindow(status);
    case 'retry_finalization':
      return documentsStatus === 'failed'
        ? ALLOWED
        : refuse('not_now', `Documents cannot be retried while ${documentsStatus}`);
  }
}

/** Why a live act is not being recorded now, and what brings its recording back. */
function unrecordedAct(state: SessionState): string {
  const onCamera = state.onCamera ?? [];
  const missing = !onCamera.includes('notary')
    ? 'enter the live room with your camera and microphone on (in the console: Enter the live room)'
    : 'a signer must be on camera in the room';
  return `Session cannot be completed without a recording of the act: ${missing}`;
}

export const ONLY_THE_HOST_SIGNS =
  "In same-device signing only the host joins; the other signers sign on the host's device";

/** Same-device signing: a signer other than the host joins, consents and signs only on the host's device. */
export const signsOnTheHostsDevice = (p: Pick<Joiner, 'sameDeviceAll' | 'role' | 'isHost'>): boolean =>
  p.sameDeviceAll && p.role === 'signer' && !p.isHost;

/**
 * Whether a participant's link opens its session now (`opensAt`: a scheduled session's start): the one
 * answer the join, the signing page and the signing routes give.
 */
export function judgeLinkOpen(status: SessionStatus, opensAt: number | undefined, now: number): Verdict {
  if (isFinal(status)) return refuse('not_now', `Session has ended: it is ${status}`);
  if (status === 'awaiting_pretag')
    return refuse('not_now', 'Session is not open yet: its documents are being prepared');
  if (status === 'scheduled')
    return refuse(
      'not_now',
      `Session is not open until ${new Date(opensAt ?? now).toISOString()}`,
      secondsUntil(opensAt, now),
    );
  if (!OPEN_STATUSES.includes(status)) return refuse('not_now', `Session is not open: it is ${status}`);
  return ALLOWED;
}

/** Whether a participant may join now (`opensAt`: a scheduled session's start); joining twice is `already_done`. */
export function judgeJoin(
  state: SessionState,
  joiner: Joiner,
  opensAt: number | undefined,
  now: number,
): Verdict {
  const open = judgeLinkOpen(state.status, opensAt, now);
  if (open.outcome === 'refused') return open;
  if (signsOnTheHostsDevice(joiner)) return refuse('not_now', ONLY_THE_HOST_SIGNS);
  return state.joined.some((p) => p.role === joiner.role && p.index === joiner.index)
    ? ALREADY_DONE
    : ALLOWED;
}

function signingRefusal(state: SessionState): Verdict | undefined {
  if (!state.signing) return refuse('not_now', OPENING_DOCUMENTS, 1);
  const { done, total } = signingTally(state.signing);
  return done < total
    ? refuse('not_now', `Session cannot be completed before every signer has signed (${done} of ${total})`)
    : undefined;
}

function identityRefusal(state: SessionState, plan: SessionPlan): Verdict | undefined {
  const required = plan.identityRequired.length;
  const established = plan.identityRequired.filter((who) => state.verified.some(sameParticipant(who))).length;
  return established < required
    ? refuse(
        'not_now',
        `Session cannot be started before every participant has verified their identity (${established} of ${required})`,
      )
    : undefined;
}

const witnessesJoined = (state: SessionState) => state.joined.filter((p) => p.role === 'witness').length;

/** What a session that cannot start yet is waiting for, when it is the service that is waited on. */
function waitingFor(state: SessionState, plan: SessionPlan, now: number): string {
  if (state.status === 'scheduled') return `: it opens at ${new Date(plan.startAt ?? now).toISOString()}`;
  if (state.status === 'awaiting_notary') return ': waiting for a notary to be assigned';
  return '';
}

function retryAfter(state: SessionState, plan: SessionPlan, now: number): number | undefined {
  if (state.status === 'scheduled') return secondsUntil(plan.startAt, now);
  if (state.status === 'awaiting_notary') return NOTARY_WAIT_RETRY_SECONDS;
  return undefined;
}

const secondsUntil = (at: number | undefined, now: number) =>
  at === undefined ? undefined : Math.max(1, Math.ceil((at - now) / 1000));
