import {
  type ActivityFailure,
  allHandlersFinished,
  CancellationScope,
  condition,
  continueAsNew,
  log,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import {
  acceptOfferUpdate,
  addDocumentsUpdate,
  alreadyDoneFailure,
  cancelUpdate,
  completeUpdate,
  identityOutcomeUpdate,
  joinUpdate,
  participantJoinedSignal,
  isParticipantRef,
  pretaggedUpdate,
  refusedFailure,
  releaseDocumentsUpdate,
  retryFinalizationUpdate,
  snapshotQuery,
  startUpdate,
  type CompleteRequest,
  type Joiner,
  type SessionStatus,
  type SessionWorkflowInput,
} from '../core/session/messages';
import {
  commissionOfRequest,
  initialStatus,
  isFinal,
  judgeAccept,
  judgeCompletion,
  judgeIdentityOutcome,
  judgeJoin,
  judgeRequest,
  openingStatus,
  planOfInput,
  type SessionPlan,
  type SessionRequest,
  type Verdict,
} from '../core/session/machine';
import { confirmSessionRecorded, databaseSteps, failureType, finalize, mail } from './sessionActivities';
import { sessionChanges } from './sessionChanges';
import { SessionRun } from './sessionRun';
import { historyPast } from './history';
import { SessionStatusAttribute } from './searchAttributes';
import { dispatchToNetwork, staffNetworkWitnesses } from './networkDispatch';

/** Far under Temporal's 50,000-event limit: a waiting session continues as new past it. */
const HISTORY_LIMIT = 10_000;

export type SessionOutcome = SessionStatus | 'abandoned';

/** The patch under which a session publishes its last events in a task before the one that closes it. */
const CLOSES_IN_A_TASK_OF_ITS_OWN = 'closes-in-a-task-of-its-own';

/** The patch under which a participantJoined signal is held to the join's rules. */
const LEGACY_JOIN_JUDGED = 'legacy-join-judged';

/**
 * One notarization session, from creation to its end:
 *   [awaiting_pretag] → [scheduled] → awaiting_notary → ready → in_progress → completed
 * with `expired` (auto_expire_session_on) and `cancelled` as exits from any unfinished state.
 *
 * Temporal's cancellation (the UI's Request Cancellation, `temporal workflow cancel`) would break off
 * whichever step is under way and close the workflow, leaving the session's row, its participants and
 * its integrator where they were, with no event. It is taken as the integrator's cancel instead, under
 * the same rule; the session's steps never see it.
 */
export async function sessionWorkflow(input: SessionWorkflowInput): Promise<SessionOutcome> {
  const cancelRequested = CancellationScope.current().cancelRequested;
  return CancellationScope.nonCancellable(() => session(input, cancelRequested));
}

async function session(
  input: SessionWorkflowInput,
  cancelRequested: Promise<never>,
): Promise<SessionOutcome> {
  const { current, has } = sessionChanges();
  const db = databaseSteps(has);
  const startAt = input.startAt ? Date.parse(input.startAt) : undefined;
  const plan: SessionPlan = planOfInput(input);
  // A named team notary is known at creation: such sessions are ready at once (sessions started before
  // this rule waited in awaiting_notary for the assignment).
  const readyAtOnce = input.notary.kind === 'team' && has('named-notary-ready-at-once');
  // The same first state the API records with the session, so both agree from the first moment.
  const run = new SessionRun(
    db,
    input.sessionId,
    input.resume ? 'awaiting_notary' : initialStatus(plan, Date.now(), readyAtOnce),
    input.expiresAt ? Date.parse(input.expiresAt) : undefined,
    // A run older code continued as new had published with random ids: any generation but 0 is its own.
    input.resume ? (input.resume.generation ?? 1) : 0,
  );
  // The API starts the workflow with the session's first status as its attribute.
  if (current)
    run.statusAttribute = workflowInfo().typedSearchAttributes.get(SessionStatusAttribute) as
      SessionStatus | undefined;
  if (input.resume) run.restoreParticipants(input.resume);
  run.waitingSince = input.resume?.waitingSince;
  const { requested } = run;

  /** A validator's answer: refusals fail the update; `already_done` answers with the state, or is refused. */
  const enforce = (verdict: Verdict, alreadyDone: 'answer' | 'refuse' = 'answer') => {
    if (verdict.outcome === 'refused') throw refusedFailure(verdict.refusal);
    if (verdict.outcome === 'already_done' && alreadyDone === 'refuse') throw alreadyDoneFailure();
  };
  const judged = (request: SessionRequest) => (_request?: unknown) =>
    enforce(judgeRequest(run.state(), plan, request, Date.now()));
  const judgedJoin = (joiner: Joiner) => judgeJoin(run.state(), joiner, startAt, Date.now());

  /**
   * An update's handler waits for the session's steps. Handlers run in the workflow's root scope, which
   * Temporal's cancellation cancels: that must not break off an integrator's or a notary's request.
   */
  const steadfast =
    <A extends unknown[], R>(handler: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      CancellationScope.nonCancellable(() => handler(...args));

  cancelRequested.catch(() => {
    const verdict = judgeRequest(run.state(), plan, 'cancel', Date.now());
    if (verdict.outcome === 'allowed') requested.cancel = true;
    if (verdict.outcome === 'refused')
      log.warn('Cancellation request declined: the session cannot be cancelled now', { status: run.status });
  });

  setHandler(snapshotQuery, () => ({
    ...run.result(),
    notaryAssigned: run.notaryAssigned,
    joined: [...run.joined],
    offeredTo: run.openOffer?.notaryId,
  }));
  // Sent by the API before the join update, now only from the Temporal UI: a malformed one would fail every
  // workflow task from here on (and a reset would give it to the new run again). One sent now is held to
  // the join's rules as the update is (but for same-device signing, which it cannot tell); the histories
  // that carry the API's took it as it came.
  setHandler(participantJoinedSignal, (participant) => {
    if (!isParticipantRef(participant)) return;
    if (has(LEGACY_JOIN_JUDGED)) {
      if (judgedJoin({ ...participant, sameDeviceAll: false, isHost: false }).outcome !== 'allowed') {
        log.warn('participantJoined signal declined: the join update would refuse it', {
          role: participant.role,
          index: participant.index,
          status: run.status,
        });
        return;
      }
    }
    run.recordJoin(participant);
  });
  setHandler(
    joinUpdate,
    (joiner) => {
      run.recordJoin(joiner);
      return run.result();
    },
    { validator: (joiner) => enforce(judgedJoin(joiner), 'refuse') },
  );
  setHandler(
    identityOutcomeUpdate,
    (check) => {
      run.recordIdentity(check);
      return run.result();
    },
    {
      validator: (check) =>
        enforce(judgeIdentityOutcome(run.state(), run.recordedChecks.includes(check.checkId)), 'refuse'),
    },
  );
  setHandler(
    pretaggedUpdate,
    steadfast(async () => {
      requested.pretagged = true;
      await condition(() => run.status !== 'awaiting_pretag');
      return run.result();
    }),
    { validator: judged('pretagged') },
  );
  setHandler(
    startUpdate,
    steadfast(async () => {
      requested.start = true;
      await condition(() => run.status !== 'ready');
      return run.result();
    }),
    { validator: judged('start') },
  );
  setHandler(
    completeUpdate,
    steadfast(async (request?: CompleteRequest) => {
      requested.complete = true;
      // The commission judged is the one the certificates state, whatever the record on file says later.
      run.actNotary ??= request?.notary;
      await condition(() => run.status !== 'in_progress');
      return run.result();
    }),
    {
      // The act's time is this task's: the commission is judged at the time the certificate will state.
      validator: (request: CompleteRequest | undefined) =>
        enforce(
          request
            ? judgeCompletion(run.state(), plan, commissionOfRequest(request), Date.now())
            : judgeRequest(run.state(), plan, 'complete', Date.now()),
        ),
    },
  );
  setHandler(
    releaseDocumentsUpdate,
    steadfast(async () => {
      // Documents still being finalized go out once they are ready: the answer need not wait for that.
      requested.release = true;
      await condition(() => run.documentsStatus !== 'held');
      return run.result();
    }),
    { validator: judged('release_documents') },
  );
  setHandler(
    cancelUpdate,
    steadfast(async (_request: { reason?: string }) => {
      requested.cancel = true;
      await condition(() => run.status === 'cancelled');
      return run.result();
    }),
    { validator: judged('cancel') },
  );
  setHandler(
    retryFinalizationUpdate,
    steadfast(async () => {
      requested.retryFinalization = true;
      await condition(() => run.documentsStatus !== 'failed');
      return run.result();
    }),
    { validator: judged('retry_finalization') },
  );
  setHandler(
    acceptOfferUpdate,
    steadfast(async ({ notaryId }) => {
      const acceptedAt = Date.now();
      requested.acceptedBy = notaryId;
      // Once an accept is in, the dispatch takes it and records the session ready, unless it ends first.
      await condition(() => run.networkNotaryId === notaryId || isFinal(run.status));
      return { ...run.result(), waitedMs: acceptedAt - (run.waitingSince ?? acceptedAt) };
    }),
    {
      validator: ({ notaryId }) =>
        enforce(judgeAccept(run.state(), run.openOffer?.notaryId, run.networkNotaryId, notaryId)),
    },
  );
  setHandler(
    addDocumentsUpdate,
    ({ documentIds }) => {
      run.queue('document_added', { document_ids: documentIds });
      return run.result();
    },
    { validator: judged('add_documents') },
  );

  // Sessions started before this closed in the task that published last. Not an async function: one
  // more promise on their path would reorder their commands against a handler's, and fail their replay.
  const publishBeforeClosing = (): Promise<void> =>
    has(CLOSES_IN_A_TASK_OF_ITS_OWN) ? run.publishBeforeClosing() : run.flushEvents();

  const finish = async (): Promise<SessionOutcome> => {
    if (requested.cancel) {
      await run.enter('cancelled', 'session_cancelled');
    } else if (run.expired() && run.status !== 'completed') {
      await run.enter('expired', 'session_expired');
    }
    await publishBeforeClosing();
    return run.status;
  };

  /** Steps 1–3, for a new session (not one continued as new); an outcome when it ended early. */
  async function open(): Promise<SessionOutcome | undefined> {
    // 1. The session must exist in the database; a workflow whose request failed to commit ends quietly.
    try {
      await confirmSessionRecorded({ sessionId: input.sessionId, transactionId: input.transactionId }, has);
    } catch (err) {
      if (failureType(err) === 'SessionNotRecorded') return 'abandoned';
      throw err;
    }
    await run.publish('session_created');

    // 2. Pretagging hold: invitations wait for the document to be marked pretagged.
    if (input.holdInvitesUntilPretagged) {
      await run.enter('awaiting_pretag');
      if (!(await run.waitFor(() => requested.pretagged))) return finish();
    }
    if (has('mail-beside-the-flow')) {
      // Mail is waited for like any other event: a cancel or the expiry ends the wait, so an SMTP outage
      // holds neither back.
      let invited = false;
      void mail.sendInvitations({ sessionId: input.sessionId }).then(({ bounced }) => {
        run.reportBounces(bounced);
        invited = true;
      });
      if (!(await run.waitFor(() => invited))) return finish();
    } else {
      await mail.sendInvitations({ sessionId: input.sessionId });
    }
    await run.publish('invites_sent');

    // 3. Scheduled sessions open at session_timing.
    if (startAt !== undefined && startAt > Date.now()) {
      await run.enter('scheduled');
      await run.waitFor(() => false, startAt);
      if (requested.cancel || run.expired()) return finish();
    }
    return undefined;
  }
  if (!input.resume) {
    const ended = await open();
    if (ended) return ended;
  }

  // 4. A notary: the named team member at once; on demand, the network once the signer waits.
  await run.enter(openingStatus(plan, readyAtOnce));
  const witnesses =
    (input.serviceWitnesses ?? 0) > 0 && has('network-witnesses')
      ? staffNetworkWitnesses(run, plan, input.sessionId, input.serviceWitnesses!)
      : undefined;
  if (input.notary.kind === 'network' && has('network-offers')) {
    const outcome = await dispatchToNetwork(run, plan, input.sessionId, historyIsLong);
    if (outcome === 'ended') return finish();
    if (outcome === 'continue_as_new') return carryOn();
  } else {
    for (;;) {
      const assignment =
        input.notary.kind === 'team'
          ? await db.assignTeamNotary({ sessionId: input.sessionId, memberId: input.notary.memberId })
          : await db.assignNetworkNotary({ sessionId: input.sessionId, state: input.notary.state });
      if (assignment.notary) {
        run.notaryAssigned = true;
        await run.enter('ready', 'notary_assigned', { notary: assignment.notary });
        break;
      }
      await run.waitFor(() => false, Date.now() + assignment.retryAfterMs);
      if (requested.cancel || run.expired()) return finish();
      if (historyIsLong()) return carryOn();
    }
  }

  // 5. The notary starts the session once a signer is in, and completes it.
  if (!(await run.waitFor(() => requested.start))) return finish();
  await run.enter('in_progress', 'session_started');
  if (!(await run.waitFor(() => requested.complete))) return finish();
  await run.enter('completed', 'session_completed');

  // 6. The notarized PDFs (stamped, certified, digitally signed) and the journal. Sessions that
  // completed before this step existed replay without it.
  if (has('notarized-documents')) {
    await finalizeDocuments();
    await db.recordJournal({ sessionId: input.sessionId });
  }

  // 7. Signed documents go out at once, or when the notary releases them.
  if (input.deliveryMode === 'notary_manual') {
    await run.setDocuments('held');
    await run.waitUntil(() => requested.release);
  }
  await run.setDocuments('released');
  await run.publish('documents_released');
  const notices = await mail.sendCompletionNotices({ sessionId: input.sessionId });
  // Histories recorded before bounces were reported carry no result here.
  run.reportBounces(notices?.bounced ?? []);
  await publishBeforeClosing();
  return 'completed';

  /** Carries on in a fresh run before Temporal's history limits: handlers done, events published. */
  async function carryOn(): Promise<SessionOutcome> {
    const settled = () => allHandlersFinished() && !witnesses?.busy;
    if (has(CLOSES_IN_A_TASK_OF_ITS_OWN)) {
      await run.publishBeforeClosing(settled);
    } else {
      await condition(settled);
      await run.flushEvents();
    }
    return continueAsNew<typeof sessionWorkflow>({
      ...input,
      resume: {
        joined: [...run.joined],
        waitingSince: run.waitingSince,
        verified: [...run.verified],
        recordedChecks: [...run.recordedChecks],
        generation: run.generation + 1,
      },
    });
  }

  function historyIsLong(): boolean {
    return has('network-wait-continues-as-new') && historyPast(HISTORY_LIMIT);
  }

  /**
   * Documents that cannot be notarized leave the session `failed` with the reasons, reported as an
   * event, until an operator retries them (after fixing what was wrong).
   */
  async function finalizeDocuments() {
    for (;;) {
      const failures: Array<{ documentId: string; reason: string }> = [];
      for (const documentId of await db.listDocumentsToFinalize({ sessionId: input.sessionId })) {
        try {
          await finalize.finalizeDocument({ sessionId: input.sessionId, documentId });
        } catch (err) {
          if (failureType(err) !== 'DocumentNotFinalized') throw err;
          failures.push({ documentId, reason: (err as ActivityFailure).cause!.message });
        }
      }
      if (!failures.length) return;
      await db.recordFinalizationFailures({ failures });
      await run.setDocuments('failed');
      await run.publish('documents_failed', {
        documents: failures.map((f) => ({ document_id: f.documentId, reason: f.reason })),
      });
      requested.retryFinalization = false;
      await run.waitUntil(() => requested.retryFinalization);
      await run.setDocuments('pending');
    }
  }
}
