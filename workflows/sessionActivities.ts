import {
  ActivityFailure,
  ApplicationFailure,
  proxyActivities,
  proxyLocalActivities,
  type RetryPolicy,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { Changes } from './sessionChanges';

// Every policy retries infrastructure failures (PostgreSQL, SMTP or a worker gone) until they pass;
// what the workflow must decide on comes back as a value or a non-retryable ApplicationFailure.
export const RETRY_UNTIL_IT_PASSES: RetryPolicy = {
  initialInterval: '1s',
  backoffCoefficient: 2,
  maximumInterval: '1m',
};

/**
 * One or two database round trips each, as ordinary activities (sessions started before the local steps
 * below): an attempt on a worker that died is retried after 10 s.
 */
const io = proxyActivities<Activities>({
  startToCloseTimeout: '10s',
  retry: RETRY_UNTIL_IT_PASSES,
});

/**
 * The same steps run by the worker inside the workflow task that asks for them. An ordinary activity
 * costs Temporal a task of its own and the workflow another task to go on, which for a few milliseconds
 * of database work was much of Temporal's cost of a session (parking 2,000 scheduled sessions took
 * ~40 % less Temporal CPU this way). The step and its result are recorded as a marker in the history;
 * a worker that dies mid-step leaves its task to another worker, which runs the step again — these
 * steps are idempotent. Retries back off in the worker, and past a minute on a timer. While a step
 * runs the workflow's task is held, so no update reaches it: the API never waits for an update while
 * holding a lock these steps take (adding documents orders itself with an advisory lock, not the
 * session's row).
 */
const localIo = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10s',
  retry: RETRY_UNTIL_IT_PASSES,
});

export type DatabaseSteps = typeof io;

/**
 * The session's database steps; sessions started before they ran as local activities keep ordinary
 * activities so their histories replay. Call once, at the start of the workflow.
 */
export function databaseSteps(has: Changes): DatabaseSteps {
  return has('database-steps-local') ? localIo : io;
}

/**
 * E-mail to each recipient in turn, bounded by SMTP's own timeouts; the heartbeat notices a dead
 * worker within 10 s.
 */
export const mail = proxyActivities<Activities>({
  startToCloseTimeout: '2m',
  heartbeatTimeout: '10s',
  retry: RETRY_UNTIL_IT_PASSES,
});

/**
 * A 10 MB document takes seconds to stamp and sign; each gets its own generous attempt, and its
 * heartbeats let a dead worker's attempt be retried within seconds. The activity bounds the attempts
 * that fail for a reason other than an outage (`DocumentNotFinalized`).
 */
export const finalize = proxyActivities<Activities>({
  startToCloseTimeout: '5m',
  heartbeatTimeout: '10s',
  retry: RETRY_UNTIL_IT_PASSES,
});

/**
 * The API writes the session's rows in the same transaction that starts this workflow. Until that
 * transaction is over, or while the database is unreachable, keep asking; only the activity's
 * non-retryable `SessionNotRecorded` (the transaction aborted) ends the wait. Operators see this wait
 * as a pending activity.
 */
const confirm = proxyActivities<Activities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '500ms', backoffCoefficient: 2, maximumInterval: '10s' },
});

/**
 * The same question asked within the workflow's task first: the transaction has almost always committed
 * by then, and as an activity task the answer cost Temporal a task and the workflow another task to go
 * on (parking 2,000 scheduled sessions: 80 → 68 ms of CPU each, Temporal's 37 → 26 ms).
 */
const confirmInTask = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '200ms', backoffCoefficient: 2, maximumAttempts: 3 },
});

type RecordedSession = Parameters<Activities['confirmSessionRecorded']>[0];

/**
 * Resolves once the session's rows are committed; fails with `SessionNotRecorded` once their
 * transaction aborted. A transaction still open after the first tries (or a database that did not
 * answer them) is waited for as the activity operators see.
 */
export function confirmSessionRecorded(input: RecordedSession, has: Changes): Promise<void> {
  // Sessions started before the first tries replay the activity alone, and resolve as directly as they
  // did then: one more promise in between would reorder the main flow's commands against an update
  // handler finishing in the same task.
  if (!has('transaction-asked-in-task-first')) return confirm.confirmSessionRecorded(input);
  return askInTaskFirst(input);
}

async function askInTaskFirst(input: RecordedSession): Promise<void> {
  try {
    return await confirmInTask.confirmSessionRecorded(input);
  } catch (err) {
    if (failureType(err) === 'SessionNotRecorded') throw err;
  }
  await confirm.confirmSessionRecorded(input);
}

/**
 * The type of the `ApplicationFailure` an activity ended with, if that is how it ended: an activity
 * task's failure arrives as the cause of an `ActivityFailure`, a local activity's as itself.
 */
export function failureType(err: unknown): string | undefined {
  const failure = err instanceof ActivityFailure ? err.cause : err;
  return failure instanceof ApplicationFailure ? (failure.type ?? undefined) : undefined;
}
