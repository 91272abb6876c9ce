import {
  type ActivityFailure,
  ParentClosePolicy,
  condition,
  patched,
  setHandler,
  startChild,
  upsertSearchAttributes,
  uuid4,
} from '@temporalio/workflow';
import {
  addDocumentsUpdate,
  alreadyDoneFailure,
  cancelUpdate,
  completeUpdate,
  joinUpdate,
  participantJoinedSignal,
  pretaggedUpdate,
  refusedFailure,
  releaseDocumentsUpdate,
  retryFinalizationUpdate,
  snapshotQuery,
  startUpdate,
  type ActionResult,
  type BouncedMail,
  type DocumentsStatus,
  type ParticipantRef,
  type SessionStatus,
  type SessionWorkflowInput,
} from './sessionDefinitions';
import {
  assertDocumentsTransition,
  assertTransition,
  initialStatus,
  judgeJoin,
  judgeRequest,
  openingStatus,
  type SessionPlan,
  type SessionRequest,
  type Verdict,
} from './sessionMachine';
import { confirm, failureType, finalize, io, mail } from './sessionActivities';
import { SessionStatusAttribute } from './searchAttributes';
import type { EventName } from './events';
import { webhookDeliveryWorkflow } from './webhookDelivery';

export type SessionOutcome = SessionStatus | 'abandoned';

/**
 * One notarization session, from creation to its end:
 *   [awaiting_pretag] → [scheduled] → awaiting_notary → ready → in_progress → completed
 * with `expired` (auto_expire_session_on) and `cancelled` as exits from any unfinished state.
 */
export async function sessionWorkflow(input: SessionWorkflowInput): Promise<SessionOutcome> {
  const startAt = input.startAt ? Date.parse(input.startAt) : undefined;
  const plan: SessionPlan = {
    holdInvitesUntilPretagged: input.holdInvitesUntilPretagged,
    startAt,
    notary: input.notary,
    deliveryMode: input.deliveryMode,
  };
  // A named team notary is known at creation: such sessions are ready at once (sessions started before
  // this rule waited in awaiting_notary for the assignment).
  const readyAtOnce = input.notary.kind === 'team' && patched('named-notary-ready-at-once');
  // The same first state the API records with the session, so both agree from the first moment.
  let status: SessionStatus = initialStatus(plan, Date.now(), readyAtOnce);
  let documentsStatus: DocumentsStatus = 'pending';
  let notaryAssigned = false;
  const joined: ParticipantRef[] = [];
  const requested = {
    pretagged: false,
    start: false,
    complete: false,
    release: false,
    cancel: false,
    retryFinalization: false,
  };
  const expiresAt = input.expiresAt ? Date.parse(input.expiresAt) : undefined;

  // Signal and update handlers may not run activities; they queue events for the main flow to publish.
  const pendingEvents: Array<[EventName, Record<string, unknown>]> = [];

  const result = (): ActionResult => ({ status, documentsStatus });
  const expired = () => expiresAt !== undefined && Date.now() >= expiresAt;
  const state = () => ({ status, documentsStatus, joined });
  /** A validator's answer: refusals fail the update; `already_done` answers with the state, or is refused. */
  const enforce = (verdict: Verdict, alreadyDone: 'answer' | 'refuse' = 'answer') => {
    if (verdict.outcome === 'refused') throw refusedFailure(verdict.refusal);
    if (verdict.outcome === 'already_done' && alreadyDone === 'refuse') throw alreadyDoneFailure();
  };
  const judged = (request: SessionRequest) => (_request?: unknown) =>
    enforce(judgeRequest(state(), plan, request, Date.now()));

  const recordJoin = (participant: ParticipantRef) => {
    if (joined.some((p) => p.role === participant.role && p.index === participant.index)) return;
    const { role, index, email } = participant;
    joined.push({ role, index, email });
    pendingEvents.push(['join_session', { role, index, email }]);
  };

  setHandler(snapshotQuery, () => ({ status, documentsStatus, notaryAssigned, joined: [...joined] }));
  setHandler(participantJoinedSignal, recordJoin);
  setHandler(
    joinUpdate,
    (joiner) => {
      recordJoin(joiner);
      return result();
    },
    { validator: (joiner) => enforce(judgeJoin(state(), joiner, startAt, Date.now()), 'refuse') },
  );
  setHandler(
    pretaggedUpdate,
    async () => {
      requested.pretagged = true;
      await condition(() => status !== 'awaiting_pretag');
      return result();
    },
    { validator: judged('pretagged') },
  );
  setHandler(
    startUpdate,
    async () => {
      requested.start = true;
      await condition(() => status !== 'ready');
      return result();
    },
    { validator: judged('start') },
  );
  setHandler(
    completeUpdate,
    async () => {
      requested.complete = true;
      await condition(() => status !== 'in_progress');
      return result();
    },
    { validator: judged('complete') },
  );
  setHandler(
    releaseDocumentsUpdate,
    async () => {
      // Documents still being finalized go out once they are ready: the answer need not wait for that.
      requested.release = true;
      await condition(() => documentsStatus !== 'held');
      return result();
    },
    { validator: judged('release_documents') },
  );
  setHandler(
    cancelUpdate,
    async (_request: { reason?: string }) => {
      requested.cancel = true;
      await condition(() => status === 'cancelled');
      return result();
    },
    { validator: judged('cancel') },
  );
  setHandler(
    retryFinalizationUpdate,
    async () => {
      requested.retryFinalization = true;
      await condition(() => documentsStatus !== 'failed');
      return result();
    },
    { validator: judged('retry_finalization') },
  );
  setHandler(
    addDocumentsUpdate,
    ({ documentIds }) => {
      pendingEvents.push(['document_added', { document_ids: documentIds }]);
      return result();
    },
    { validator: judged('add_documents') },
  );

  async function publish(event: EventName, data: Record<string, unknown> = {}) {
    const { deliveries } = await io.publishEvent({
      eventId: `evt_${uuid4().replace(/-/g, '')}`,
      sessionId: input.sessionId,
      event,
      status,
      data,
    });
    for (const delivery of deliveries) {
      await startChild(webhookDeliveryWorkflow, {
        workflowId: `webhook-delivery-${delivery.deliveryId}`,
        args: [delivery],
        // A slow or dead receiver must never hold the session back, nor die with it.
        parentClosePolicy: ParentClosePolicy.ABANDON,
      });
    }
  }
  async function flushEvents() {
    while (pendingEvents.length) {
      const [event, data] = pendingEvents.shift()!;
      await publish(event, data);
    }
  }

  async function enter(next: SessionStatus, event?: EventName, data?: Record<string, unknown>) {
    assertTransition(status, next);
    status = next;
    upsertSearchAttributes([{ key: SessionStatusAttribute, value: next }]);
    await io.recordStatus({ sessionId: input.sessionId, status, documentsStatus });
    if (event) await publish(event, data);
  }

  async function setDocuments(next: DocumentsStatus) {
    assertDocumentsTransition(documentsStatus, next);
    documentsStatus = next;
    await io.recordStatus({ sessionId: input.sessionId, status, documentsStatus });
  }

  /**
   * Waits for `ready()` while publishing queued events; false when the session was cancelled or reached
   * its expiry (or `until`) first.
   */
  async function waitFor(ready: () => boolean, until?: number): Promise<boolean> {
    for (;;) {
      const deadline = Math.min(until ?? Infinity, expiresAt ?? Infinity);
      const wake = () => ready() || requested.cancel || pendingEvents.length > 0;
      const remaining = deadline - Date.now();
      const woke =
        deadline === Infinity
          ? (await condition(wake), true)
          : remaining > 0 && (await condition(wake, remaining));
      await flushEvents();
      if (requested.cancel) return false;
      if (ready()) return true;
      if (!woke) return false;
    }
  }

  // 1. The session must exist in the database; a workflow whose request failed to commit ends quietly.
  try {
    await confirm.confirmSessionRecorded({ sessionId: input.sessionId, transactionId: input.transactionId });
  } catch (err) {
    if (failureType(err) === 'SessionNotRecorded') return 'abandoned';
    throw err;
  }
  await publish('session_created');

  const finish = async (): Promise<SessionOutcome> => {
    if (requested.cancel) {
      await enter('cancelled', 'session_cancelled');
    } else if (expired() && status !== 'completed') {
      await enter('expired', 'session_expired');
    }
    await flushEvents();
    return status;
  };

  // 2. Pretagging hold: invitations wait for the document to be marked pretagged.
  if (input.holdInvitesUntilPretagged) {
    await enter('awaiting_pretag');
    if (!(await waitFor(() => requested.pretagged))) return finish();
  }
  if (patched('mail-beside-the-flow')) {
    // Mail is waited for like any other event: a cancel or the expiry ends the wait, so an SMTP outage
    // holds neither back.
    let invited = false;
    void mail.sendInvitations({ sessionId: input.sessionId }).then(({ bounced }) => {
      reportBounces(bounced);
      invited = true;
    });
    if (!(await waitFor(() => invited))) return finish();
  } else {
    await mail.sendInvitations({ sessionId: input.sessionId });
  }
  await publish('invites_sent');

  // 3. Scheduled sessions open at session_timing.
  if (startAt !== undefined && startAt > Date.now()) {
    await enter('scheduled');
    await waitFor(() => false, startAt);
    if (requested.cancel || expired()) return finish();
  }

  // 4. A notary: the named team member at once, or the first available network notary, retried durably.
  await enter(openingStatus(plan, readyAtOnce));
  for (;;) {
    const assignment =
      input.notary.kind === 'team'
        ? await io.assignTeamNotary({ sessionId: input.sessionId, memberId: input.notary.memberId })
        : await io.assignNetworkNotary({ sessionId: input.sessionId, state: input.notary.state });
    if (assignment.notary) {
      notaryAssigned = true;
      await enter('ready', 'notary_assigned', { notary: assignment.notary });
      break;
    }
    await waitFor(() => false, Date.now() + assignment.retryAfterMs);
    if (requested.cancel || expired()) return finish();
  }

  // 5. The notary starts the session once a signer is in, and completes it.
  if (!(await waitFor(() => requested.start))) return finish();
  await enter('in_progress', 'session_started');
  if (!(await waitFor(() => requested.complete))) return finish();
  await enter('completed', 'session_completed');

  // 6. The notarized PDFs (stamped, certified, digitally signed) and the journal. Sessions that
  // completed before this step existed replay without it.
  if (patched('notarized-documents')) {
    await finalizeDocuments();
    await io.recordJournal({ sessionId: input.sessionId });
  }

  // 7. Signed documents go out at once, or when the notary releases them.
  if (input.deliveryMode === 'notary_manual') {
    await setDocuments('held');
    await waitUntil(() => requested.release);
  }
  await setDocuments('released');
  await publish('documents_released');
  const notices = await mail.sendCompletionNotices({ sessionId: input.sessionId });
  // Histories recorded before bounces were reported carry no result here.
  reportBounces(notices?.bounced ?? []);
  await flushEvents();
  return 'completed';

  /** Waits for `ready()` while publishing queued events; only for steps past the session's expiry. */
  async function waitUntil(ready: () => boolean) {
    for (;;) {
      await flushEvents();
      if (ready()) return;
      await condition(() => ready() || pendingEvents.length > 0);
    }
  }

  /**
   * Documents that cannot be notarized leave the session `failed` with the reasons, reported as an
   * event, until an operator retries them (after fixing what was wrong).
   */
  async function finalizeDocuments() {
    for (;;) {
      const failures: Array<{ documentId: string; reason: string }> = [];
      for (const documentId of await io.listDocumentsToFinalize({ sessionId: input.sessionId })) {
        try {
          await finalize.finalizeDocument({ sessionId: input.sessionId, documentId });
        } catch (err) {
          if (failureType(err) !== 'DocumentNotFinalized') throw err;
          failures.push({ documentId, reason: (err as ActivityFailure).cause!.message });
        }
      }
      if (!failures.length) return;
      await io.recordFinalizationFailures({ failures });
      await setDocuments('failed');
      await publish('documents_failed', {
        documents: failures.map((f) => ({ document_id: f.documentId, reason: f.reason })),
      });
      requested.retryFinalization = false;
      await waitUntil(() => requested.retryFinalization);
      await setDocuments('pending');
    }
  }

  function reportBounces(bounced: BouncedMail[]) {
    for (const mail of bounced) pendingEvents.push(['email_bounced', { ...mail }]);
  }
}
