import type { SessionWorkflowInput } from '../core/session/workflowInput';
import { confirmSessionRecorded, failureType, mail } from './sessionActivities';
import type { SessionRun } from './sessionRun';

/**
 * A new session's first steps, before it looks for its notary: confirm its rows committed, hold its
 * invitations for pretagging if asked, send them, and wait for a scheduled start. Answers how it
 * stopped early: `abandoned` (the create never committed) or `ended` (cancelled or expired meanwhile).
 */
export async function openSession(
  run: SessionRun,
  input: SessionWorkflowInput,
): Promise<'open' | 'abandoned' | 'ended'> {
  // 1. The session must exist in the database; a workflow whose request failed to commit ends quietly.
  try {
    await confirmSessionRecorded({ sessionId: input.sessionId, transactionId: input.transactionId });
  } catch (err) {
    if (failureType(err) === 'SessionNotRecorded') return 'abandoned';
    throw err;
  }
  await run.events.publish('session_created');

  // 2. Pretagging hold: invitations wait for the document to be marked pretagged.
  if (input.plan.holdInvitesUntilPretagged) {
    await run.enter('awaiting_pretag');
    if (!(await run.waitFor(() => run.requested.pretagged))) return 'ended';
  }
  // Mail is waited for like any other event: a cancel or the expiry ends the wait, so an SMTP outage
  // holds neither back.
  let invited = false;
  void mail.sendInvitations({ sessionId: input.sessionId }).then(({ bounced }) => {
    run.reportBounces(bounced);
    invited = true;
  });
  if (!(await run.waitFor(() => invited))) return 'ended';
  await run.events.publish('invites_sent');

  // 3. Scheduled sessions open at session_timing.
  const { startAt } = input.plan;
  if (startAt !== undefined && startAt > Date.now()) {
    await run.enter('scheduled');
    await run.waitFor(() => false, startAt);
    if (run.ended()) return 'ended';
  }
  return 'open';
}
