import { ApplicationFailure } from '@temporalio/common';
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { SignatureKind, SigningPlace } from './signing';
import type { MediaEvent } from './media';

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

/** `failed`: a document could not be notarized; an operator's `retry-finalization` takes it back to `pending`. */
export const DOCUMENTS_STATUSES = ['pending', 'held', 'released', 'failed'] as const;
export type DocumentsStatus = (typeof DOCUMENTS_STATUSES)[number];

export type DeliveryMode = 'immediately' | 'notary_manual';

/**
 * The notary the session asked for: a named team notary, or the network's. `state` is its
 * `state_specific_notary`: the act is performed under a commission of that state only.
 */
export type NotaryRequest =
  { kind: 'team'; memberId: string; state?: string } | { kind: 'network'; state?: string };

export interface ParticipantKey {
  role: 'signer' | 'witness';
  index: number;
}

export interface ParticipantRef extends ParticipantKey {
  email: string;
}

/** Whether a signal's input, which Temporal does not check on its way in, is a participant. */
export function isParticipantRef(value: unknown): value is ParticipantRef {
  const ref = value as Partial<ParticipantRef> | undefined;
  return (
    (ref?.role === 'signer' || ref?.role === 'witness') &&
    Number.isInteger(ref.index) &&
    (ref.index as number) >= 0 &&
    typeof ref.email === 'string'
  );
}

/** A participant asking to join, with what their link says about same-device signing. */
export interface Joiner extends ParticipantRef {
  sameDeviceAll: boolean;
  isHost: boolean;
}

/** Why the session refuses a request. */
export interface Refusal {
  /** `forbidden`: never this actor's to do; `not_now`: the session's state does not allow it. */
  kind: 'forbidden' | 'not_now';
  reason: string;
  /** When waiting on the service (not on a person) will change the answer. */
  retryAfterSeconds?: number;
}

/** The failure types a validator refuses an update with; the API reads them back. */
export const REFUSED = 'SessionRefused';
export const ALREADY_DONE = 'AlreadyDone';

export function refusedFailure(refusal: Refusal): ApplicationFailure {
  return ApplicationFailure.create({
    type: REFUSED,
    message: refusal.reason,
    details: [refusal],
    nonRetryable: true,
  });
}

export function alreadyDoneFailure(): ApplicationFailure {
  return ApplicationFailure.create({ type: ALREADY_DONE, message: 'Already done', nonRetryable: true });
}

export interface SessionSnapshot {
  status: SessionStatus;
  documentsStatus: DocumentsStatus;
  notaryAssigned: boolean;
  joined: ParticipantRef[];
  /** The network notary the session's open offer is made to, if one is open. */
  offeredTo?: string;
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
 * A network witness of the session left the network (an operator removed them): before the act begins,
 * the session staffs their place again; from then on it changes nothing.
 */
export const networkWitnessLeftSignal = defineSignal('networkWitnessLeft');

/**
 * A network notary left the network (an operator removed them): an offer open to them is withdrawn, and
 * if they accepted the session and have not started it, they are let go; either way the next is asked.
 */
export const networkNotaryLeftSignal = defineSignal<[{ notaryId: string }]>('networkNotaryLeft');

/** A network notary the session may be offered became free: a session waiting for one asks at once. */
export const networkNotaryFreeSignal = defineSignal('networkNotaryFree');

/** A network witness in one of the session's places for them (`index` among its witnesses). */
export interface NetworkWitness {
  index: number;
  email: string;
  name: string;
}

/** A join an operator records from the Temporal UI; judged as the join update is (but for same-device signing). */
export const participantJoinedSignal = defineSignal<[ParticipantRef]>('participantJoined');

/**
 * A participant joins: the validator judges it (`judgeJoin`), and a second join of the same participant
 * is refused as `AlreadyDone`, so retries and reloads leave no trace in the session's history.
 */
export const joinUpdate = defineUpdate<ActionResult, [Joiner]>('join');

export const pretaggedUpdate = defineUpdate<ActionResult>('pretagged');
export const startUpdate = defineUpdate<ActionResult>('start');
/**
 * The session's notary as a certificate states them (`NOTARY_AT_THE_ACT` in `src/db/sessionNotary`): their
 * commission's name, state, county, number and expiry (YYYY-MM-DD), their newest seal and signature.
 */
export interface NotaryAtTheAct {
  name: string | null;
  state: string | null;
  county: string | null;
  commission_number: string | null;
  commission_expires_on: string | null;
  seal_id: string | null;
  /** Their adopted signature, which they sign this act's documents with. */
  signature_id: string | null;
  /** The IANA zone the notary's device reported at the completion, which may date the act (`actTimeIn`). */
  time_zone?: string;
}

/**
 * What the API read for a completion that the workflow does not hold: the session's notary's commission
 * expiry on file (YYYY-MM-DD), null when none is, the instant (ISO 8601) that commission ends in its
 * jurisdiction's time, and the notary as that same read found them, which the completed session keeps for
 * its certificates. Completions from an API before the end or the notary lack them: the day is UTC's, and
 * the notary is read when the completion is recorded.
 */
export interface CompleteRequest {
  commissionExpiresOn: string | null;
  commissionEndsAt?: string;
  notary?: NotaryAtTheAct;
}
export const completeUpdate = defineUpdate<ActionResult, [CompleteRequest]>('complete');
export const releaseDocumentsUpdate = defineUpdate<ActionResult>('releaseDocuments');
/** Who cancelled a session: its account (API key or a vendor admin), its notary, or an operator (Temporal). */
export type CancelledBy = 'account' | 'notary' | 'operator';
export const cancelUpdate = defineUpdate<ActionResult, [{ reason?: string; by?: CancelledBy }]>('cancel');
/** The API adds documents only while this accepts: the workflow is the judge of the session's state. */
export const addDocumentsUpdate = defineUpdate<ActionResult, [{ documentIds: string[] }]>('addDocuments');

/** The operator's retry of documents that could not be notarized (admin CLI `retry-finalization`). */
export const retryFinalizationUpdate = defineUpdate<ActionResult>('retryFinalization');

export const snapshotQuery = defineQuery<SessionSnapshot>('snapshot');

/** The answer to a network notary's accept: how long the signer had waited for a notary. */
export interface AcceptResult extends ActionResult {
  waitedMs: number;
}

/**
 * A network notary accepts the session's open offer. The session offers itself to one notary at a
 * time, so the validator's check that the offer is theirs and still open is the whole race.
 */
export const acceptOfferUpdate = defineUpdate<AcceptResult, [{ notaryId: string }]>('acceptOffer');

/** A network notary passes the offer made to them on to the next notary at once. */
export const declineOfferUpdate = defineUpdate<ActionResult, [{ notaryId: string }]>('declineOffer');

/** The outcome of one identity check, decided by the API under the identity rules; the session records it. */
export interface IdentityOutcome extends ParticipantRef {
  checkId: string;
  /** `notary`: the notary identified the participant in the live session (personal knowledge, a witness). */
  method: 'kba' | 'biometrics' | 'notary';
  outcome: 'passed' | 'failed';
  attempt: number;
  /** KBA: right answers of the questions asked. */
  correct?: number;
  total?: number;
  reasons: string[];
  /** A failure that used the last attempt of its round: no new attempt before this instant (ISO 8601). */
  lockedUntil?: string;
  /** A failure that leaves a retake: it must start before this instant (ISO 8601). */
  retakeUntil?: string;
}

/**
 * Records an identity check's outcome: a pass admits the participant once joined; every outcome is an
 * event. A repeated report of the same check is refused as `AlreadyDone`.
 */
export const identityOutcomeUpdate = defineUpdate<ActionResult, [IdentityOutcome]>('identityOutcome');

/** The media server's event about the live room, relayed by the API; stale or malformed ones are refused. */
export const mediaEventUpdate = defineUpdate<void, [MediaEvent]>('mediaEvent');

export function workflowIdOf(sessionId: string): string {
  return `session-${sessionId}`;
}

/** A participant applied their adopted signature or initials at one of their places (the API recorded it). */
export interface SignatureApplied extends ParticipantKey {
  document: string;
  place: string;
  kind: SignatureKind;
}
/** Counts an application towards the completion; one already counted is `AlreadyDone`. */
export const signatureAppliedUpdate = defineUpdate<ActionResult, [SignatureApplied]>('signatureApplied');

/**
 * The notary changed one document's places (a document with `notary_can_edit_documents`): `removed` and
 * `moved` are `document/place` keys (never a signed one), `added` the places that came in.
 */
export interface PlacesChange {
  document: string;
  added: SigningPlace[];
  removed: string[];
  moved: string[];
}
export const placesChangedUpdate = defineUpdate<ActionResult, [PlacesChange]>('placesChanged');
