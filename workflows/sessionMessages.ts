import { CancellationScope, condition, log, setHandler } from '@temporalio/workflow';
import {
  acceptOfferUpdate,
  declineOfferUpdate,
  addDocumentsUpdate,
  alreadyDoneFailure,
  cancelUpdate,
  completeUpdate,
  identityOutcomeUpdate,
  isParticipantRef,
  joinUpdate,
  mediaEventUpdate,
  networkNotaryLeftSignal,
  networkNotaryFreeSignal,
  networkWitnessLeftSignal,
  participantJoinedSignal,
  placesChangedUpdate,
  pretaggedUpdate,
  refusedFailure,
  releaseDocumentsUpdate,
  retryFinalizationUpdate,
  signatureAppliedUpdate,
  snapshotQuery,
  startUpdate,
  type AcceptResult,
  type ActionResult,
  type CompleteRequest,
  type IdentityOutcome,
  type Joiner,
  type ParticipantRef,
  type PlacesChange,
  type SignatureApplied,
  type CancelledBy,
} from '../core/session/messages';
import {
  judgeOfferAnswer,
  judgeJoin,
  judgeRequest,
  type SessionRequest,
  type Verdict,
} from '../core/session/machine';
import { judgePlacesChange, judgeSignature } from '../core/session/signingRules';
import { judgeIdentityReport } from '../core/session/presence';
import { isFinal } from '../core/session/statuses';
import { isMediaEvent, type MediaEvent } from '../core/session/media';
import { judgeCompletionRequest } from '../core/session/completion';
import type { SessionPlan } from '../core/session/plan';
import { placeKeyOf, signerKeyOf } from '../core/session/signing';
import type { SessionRun } from './sessionRun';

/**
 * What the session does with each message it is sent (updates, the signal, the query), and the
 * validators that judge them by the session machine. An update's handler sets what the main flow waits
 * for and waits for the flow to act on it; handlers never run activities.
 */
export class SessionMessages {
  constructor(
    private readonly run: SessionRun,
    private readonly plan: SessionPlan,
  ) {}

  /** Registers each message's handler: one line each, into this class. */
  listen(): void {
    const steadfast = this.steadfast;
    setHandler(snapshotQuery, () => this.run.snapshot());
    setHandler(participantJoinedSignal, (participant) => this.joinSignalled(participant));
    setHandler(networkWitnessLeftSignal, () => void (this.run.requested.witnessLeft = true));
    setHandler(networkNotaryLeftSignal, (left) => void (this.run.requested.notaryLeft = left?.notaryId));
    setHandler(networkNotaryFreeSignal, () => void (this.run.requested.notaryFree = true));
    setHandler(joinUpdate, (joiner) => this.join(joiner), { validator: (j) => this.validateJoin(j) });
    setHandler(identityOutcomeUpdate, (check) => this.identity(check), {
      validator: (check) => this.validateIdentity(check),
    });
    setHandler(mediaEventUpdate, (event) => this.run.recordMedia(event), {
      validator: (event) => this.validateMedia(event),
    });
    setHandler(signatureAppliedUpdate, (applied) => this.signature(applied), {
      validator: (applied) => this.validateSignature(applied),
    });
    setHandler(placesChangedUpdate, (change) => this.placesChanged(change), {
      validator: (change) => this.validatePlacesChange(change),
    });
    setHandler(
      pretaggedUpdate,
      steadfast(() => this.pretagged()),
      { validator: this.judged('pretagged') },
    );
    setHandler(
      startUpdate,
      steadfast(() => this.start()),
      { validator: this.judged('start') },
    );
    setHandler(
      completeUpdate,
      steadfast((request?: CompleteRequest) => this.complete(request)),
      {
        validator: (request) => this.validateComplete(request),
      },
    );
    setHandler(
      releaseDocumentsUpdate,
      steadfast(() => this.release()),
      { validator: this.judged('release_documents') },
    );
    setHandler(
      cancelUpdate,
      steadfast((request: { reason?: string; by?: CancelledBy }) =>
        this.cancel(request?.reason, request?.by),
      ),
      {
        validator: this.judged('cancel'),
      },
    );
    setHandler(
      retryFinalizationUpdate,
      steadfast(() => this.retryFinalization()),
      { validator: this.judged('retry_finalization') },
    );
    setHandler(
      acceptOfferUpdate,
      steadfast(({ notaryId }) => this.accept(notaryId)),
      {
        validator: ({ notaryId }) => this.judgeOffer(notaryId, 'accept'),
      },
    );
    setHandler(declineOfferUpdate, ({ notaryId }) => this.decline(notaryId), {
      validator: ({ notaryId }) => this.judgeOffer(notaryId, 'decline'),
    });
    setHandler(
      addDocumentsUpdate,
      ({ documentIds }: { documentIds: string[] }) => this.addDocuments(documentIds),
      { validator: this.judged('add_documents') },
    );
  }

  /** Temporal's cancellation of the workflow is taken as the integrator's cancel, under the same rule. */
  cancelRequested(): void {
    const verdict = judgeRequest(this.run.state(), this.plan, 'cancel', Date.now());
    if (verdict.outcome === 'allowed') this.run.requestCancel('operator');
    if (verdict.outcome === 'refused')
      log.warn('Cancellation request declined: the session cannot be cancelled now', {
        status: this.run.status,
      });
  }

  /**
   * An update's handler waits for the session's steps, in the workflow's root scope, which Temporal's
   * cancellation cancels: that must not break off an integrator's or a notary's request.
   */
  private steadfast =
    <A extends unknown[], R>(handler: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      CancellationScope.nonCancellable(() => handler(...args));

  /** A validator's answer: refusals fail the update; `already_done` answers with the state, or is refused. */
  private enforce(verdict: Verdict, alreadyDone: 'answer' | 'refuse' = 'answer'): void {
    if (verdict.outcome === 'refused') throw refusedFailure(verdict.refusal);
    if (verdict.outcome === 'already_done' && alreadyDone === 'refuse') throw alreadyDoneFailure();
  }

  private judged =
    (request: SessionRequest) =>
    (..._args: unknown[]): void =>
      this.enforce(judgeRequest(this.run.state(), this.plan, request, Date.now()));

  private judgeJoin(joiner: Joiner): Verdict {
    return judgeJoin(this.run.state(), joiner, this.plan.startAt, Date.now());
  }

  private validateJoin(joiner: Joiner): void {
    this.enforce(this.judgeJoin(joiner), 'refuse');
  }

  private join(joiner: Joiner): ActionResult {
    this.run.recordJoin(joiner);
    return this.run.result();
  }

  /** An operator's signal from the Temporal UI, held to the join's rules (but for same-device signing). */
  private joinSignalled(participant: ParticipantRef): void {
    if (!isParticipantRef(participant)) return;
    const verdict = this.judgeJoin({ ...participant, sameDeviceAll: false, isHost: false });
    if (verdict.outcome !== 'allowed') {
      const { role, index } = participant;
      log.warn('participantJoined signal declined: the join update would refuse it', { role, index });
      return;
    }
    this.run.recordJoin(participant);
  }

  private validateIdentity(check: IdentityOutcome): void {
    const recorded = this.run.recordedChecks.includes(check.checkId);
    this.enforce(judgeIdentityReport(this.run.state(), this.plan, check, recorded), 'refuse');
  }

  private identity(check: IdentityOutcome): ActionResult {
    this.run.recordIdentity(check);
    return this.run.result();
  }

  /** Only events about the room open now count: a lost room's arrive late, and must not move anything. */
  private validateMedia(event: MediaEvent): void {
    if (!isMediaEvent(event) || !this.run.mediaEventIsCurrent(event))
      throw refusedFailure({ kind: 'not_now', reason: 'Not an event of the room open now' });
  }

  private validateSignature(applied: SignatureApplied): void {
    this.enforce(
      judgeSignature(this.run.state(), this.plan, signerKeyOf(applied), placeKeyOf(applied)),
      'refuse',
    );
  }

  private signature(applied: SignatureApplied): ActionResult {
    this.run.signing.recordSignature(applied);
    return this.run.result();
  }

  private validatePlacesChange(change: PlacesChange): void {
    this.enforce(judgePlacesChange(this.run.state(), [...change.moved, ...change.removed]));
  }

  private placesChanged(change: PlacesChange): ActionResult {
    this.run.signing.recordPlacesChange(change);
    return this.run.result();
  }

  private async pretagged(): Promise<ActionResult> {
    this.run.requested.pretagged = true;
    return this.resultOnce(() => this.run.status !== 'awaiting_pretag');
  }

  private async start(): Promise<ActionResult> {
    this.run.requested.start = true;
    return this.resultOnce(() => this.run.status !== 'ready');
  }

  /** The act's time is this task's: the commission is judged at the time the certificate will state. */
  private validateComplete(request: CompleteRequest | undefined): void {
    const { run, plan } = this;
    this.enforce(
      request
        ? judgeCompletionRequest(run.state(), plan, request, Date.now())
        : judgeRequest(run.state(), plan, 'complete', Date.now()),
    );
  }

  private async complete(request?: CompleteRequest): Promise<ActionResult> {
    this.run.requested.complete = true;
    // The commission judged is the one the certificates state, whatever the record on file says later.
    this.run.actNotary ??= request?.notary;
    return this.resultOnce(() => this.run.status !== 'in_progress');
  }

  /** Documents still being finalized go out once they are ready: the answer need not wait for that. */
  private async release(): Promise<ActionResult> {
    this.run.requested.release = true;
    return this.resultOnce(() => this.run.documentsStatus !== 'held');
  }

  private async cancel(reason?: string, by: CancelledBy = 'account'): Promise<ActionResult> {
    this.run.requestCancel(by, reason);
    return this.resultOnce(() => this.run.status === 'cancelled');
  }

  private async retryFinalization(): Promise<ActionResult> {
    this.run.requested.retryFinalization = true;
    return this.resultOnce(() => this.run.documentsStatus !== 'failed');
  }

  private judgeOffer(notaryId: string, answer: 'accept' | 'decline'): void {
    const { run } = this;
    const offer = { openTo: run.openOffer?.notaryId, assignedTo: run.networkNotaryId };
    this.enforce(judgeOfferAnswer(run.state(), offer, notaryId, answer));
  }

  /** The dispatch closes the declined offer and offers the session to the next notary at once. */
  private decline(notaryId: string): ActionResult {
    this.run.requested.declinedBy = notaryId;
    return this.run.result();
  }

  /** Once an accept is in, the dispatch takes it and records the session ready, unless it ends first. */
  private async accept(notaryId: string): Promise<AcceptResult> {
    const acceptedAt = Date.now();
    this.run.requested.acceptedBy = notaryId;
    await condition(() => this.run.networkNotaryId === notaryId || isFinal(this.run.status));
    return { ...this.run.result(), waitedMs: acceptedAt - (this.run.waitingSince ?? acceptedAt) };
  }

  private addDocuments(documentIds: string[]): ActionResult {
    this.run.events.queue('document_added', { document_ids: documentIds });
    return this.run.result();
  }

  private async resultOnce(done: () => boolean): Promise<ActionResult> {
    await condition(done);
    return this.run.result();
  }
}
