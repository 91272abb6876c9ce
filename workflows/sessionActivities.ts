import {
  ActivityFailure,
  ApplicationFailure,
  proxyActivities,
  proxyLocalActivities,
  type RetryPolicy,
} from '@temporalio/workflow';
import type { Activities } from '../activities';

// Every policy retries infrastructure failures (PostgreSQL, SMTP or a worker gone) until they pass;
// what the workflow must decide on comes back as a value or a non-retryable ApplicationFailure.
export const RETRY_UNTIL_IT_PASSES: RetryPolicy = {
  initialInterval: '1s',
  backoffCoefficient: 2,
  maximumInterval: '1m',
};

/**
 * The session's database steps, one or two round trips each (and a signal to the sessions waiting for a
 * notary a step freed), run by the worker inside the workflow task that asks for them: an ordinary
 * activity would cost Temporal a task of its own and the workflow another to go on. A worker that dies
 * mid-step leaves its task to another, which runs the step again: these steps are idempotent. While one
 * runs the workflow's task is held, so the API never waits for an update while holding a lock these take.
 */
export const databaseSteps = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10s',
  retry: RETRY_UNTIL_IT_PASSES,
});

export type DatabaseSteps = typeof databaseSteps;

/** E-mail to each recipient in turn, bounded by SMTP's own timeouts; the heartbeat notices a dead worker. */
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

/** The same question asked within the workflow's task first: the transaction has almost always committed. */
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
export async function confirmSessionRecorded(input: RecordedSession): Promise<void> {
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
