import { allHandlersFinished, CancellationScope, continueAsNew, workflowInfo } from '@temporalio/workflow';
import type { SessionStatus } from '../core/session/messages';
import type { SessionWorkflowInput } from '../core/session/workflowInput';
import { initialStatus, openingStatus } from '../core/session/statuses';
import { databaseSteps } from './sessionActivities';
import { SessionRun } from './sessionRun';
import { SessionMessages } from './sessionMessages';
import { openSession } from './sessionOpening';
import { assignTeamNotary, dispatchToNetwork, staffNetworkWitnesses } from './networkDispatch';
import { deliverDocuments, finalizeDocuments } from './documentDelivery';
import { historyPast } from './history';
import { holdLiveRoom, keepRecording } from './liveRoom';
import { SessionStatusAttribute } from '../core/temporal/searchAttributes';
import type { SessionOutcome } from '../core/temporal/workflows';

/** Far under Temporal's 50,000-event limit: a waiting session continues as new past it. */
const HISTORY_LIMIT = 10_000;

/**
 * One notarization session, from creation to its end:
 *   [awaiting_pretag] → [scheduled] → awaiting_notary → ready → in_progress → completed
 * with `expired` (auto_expire_session_on) and `cancelled` as exits from any unfinished state.
 *
 * Temporal's cancellation (the UI's Request Cancellation, `temporal workflow cancel`) would break off
 * whichever step is under way and close the workflow, leaving the session's row and its integrator
 * where they were. It is taken as the integrator's cancel instead, under the same rule.
 */
export async function sessionWorkflow(input: SessionWorkflowInput): Promise<SessionOutcome> {
  const cancelRequested = CancellationScope.current().cancelRequested;
  return CancellationScope.nonCancellable(() => session(input, cancelRequested));
}

async function session(
  input: SessionWorkflowInput,
  cancelRequested: Promise<never>,
): Promise<SessionOutcome> {
  const { plan, sessionId } = input;
  // The same first state the API records with the session, so both agree from the first moment.
  const run = new SessionRun(
    databaseSteps,
    sessionId,
    input.resume ? 'awaiting_notary' : initialStatus(plan, Date.now()),
    input.expiresAt ? Date.parse(input.expiresAt) : undefined,
    input.resume,
    workflowInfo().typedSearchAttributes.get(SessionStatusAttribute) as SessionStatus | undefined,
  );
  const messages = new SessionMessages(run, plan);
  messages.listen();
  cancelRequested.catch(() => messages.cancelRequested());

  // 1–3. Recorded, invitations out (after the pretagging hold), the scheduled time come.
  if (!input.resume) {
    const opened = await openSession(run, input);
    if (opened === 'abandoned') return 'abandoned';
    if (opened === 'ended') return finish(run);
  }

  // 4. A notary: the named team member at once; on demand, the network once the signer waits.
  await run.enter(openingStatus(plan));
  const witnesses =
    plan.serviceWitnesses > 0
      ? staffNetworkWitnesses(run, plan, sessionId, plan.serviceWitnesses)
      : undefined;
  if (plan.notary.kind === 'team') {
    await assignTeamNotary(run, sessionId, plan.notary.memberId);
  } else {
    const outcome = await dispatchToNetwork(run, plan, sessionId, () => historyPast(HISTORY_LIMIT));
    if (outcome === 'ended') return finish(run);
    if (outcome === 'continue_as_new') return carryOn(run, input, () => !witnesses?.busy);
  }

  // 5. The notary starts the session once a signer is in, and completes it: the notarial act, live in a
  //    recorded room (but in test mode).
  if (!(await run.waitFor(() => run.requested.start))) return finish(run);
  await run.enter('in_progress', 'session_started');
  run.signing.open(await run.db.signingProgress({ sessionId }));
  const room = plan.testMode ? undefined : holdLiveRoom(run, sessionId, () => run.status !== 'in_progress');
  if (!(await run.waitFor(() => run.requested.complete))) return finish(run, room);
  await run.enter('completed', 'session_completed');
  await endLiveAct(run, sessionId, room);

  // 6–7. The notarized documents and the journal; then they go out.
  await finalizeDocuments(run, sessionId, plan.testMode);
  await deliverDocuments(run, sessionId, plan.deliveryMode);
  await run.events.publishBeforeClosing();
  return 'completed';
}

/** A session that stopped before completion: cancelled, or expired; its last events published. */
async function finish(run: SessionRun, room?: Promise<void>): Promise<SessionOutcome> {
  if (run.requested.cancel) {
    const { cancelReason: reason, cancelledBy } = run.requested;
    await run.enter('cancelled', 'session_cancelled', {
      ...(reason ? { reason } : {}),
      cancelled_by: cancelledBy ?? 'operator',
    });
  } else if (run.expired() && run.status !== 'completed') {
    await run.enter('expired', 'session_expired');
  }
  // An act broken off is evidence too: what was recorded of it is kept.
  await endLiveAct(run, run.sessionId, room);
  await run.events.publishBeforeClosing();
  return run.status;
}

/** The live room closed once the act is over, and the recording of it made and kept. */
async function endLiveAct(run: SessionRun, sessionId: string, room: Promise<void> | undefined) {
  if (!room) return;
  await room;
  await keepRecording(run, sessionId);
}

/** Carries on in a fresh run before Temporal's history limits: handlers done, events published. */
async function carryOn(
  run: SessionRun,
  input: SessionWorkflowInput,
  idle: () => boolean,
): Promise<SessionOutcome> {
  await run.events.publishBeforeClosing(() => allHandlersFinished() && idle());
  return continueAsNew<typeof sessionWorkflow>({ ...input, resume: run.handOver() });
}
