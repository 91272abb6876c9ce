import { ActivityFailure, ApplicationFailure, proxyActivities, type RetryPolicy } from '@temporalio/workflow';
import type { Activities } from '../activities';

// Every policy retries infrastructure failures (PostgreSQL, SMTP or a worker gone) until they pass;
// what the workflow must decide on comes back as a value or a non-retryable ApplicationFailure.
export const RETRY_UNTIL_IT_PASSES: RetryPolicy = {
  initialInterval: '1s',
  backoffCoefficient: 2,
  maximumInterval: '1m',
};

/** One or two database round trips each: an attempt on a worker that died is retried after 10 s. */
export const io = proxyActivities<Activities>({
  startToCloseTimeout: '10s',
  retry: RETRY_UNTIL_IT_PASSES,
});

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
 * non-retryable `SessionNotRecorded` (the transaction aborted) ends the wait.
 */
export const confirm = proxyActivities<Activities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '500ms', backoffCoefficient: 2, maximumInterval: '10s' },
});

/** The type of the `ApplicationFailure` an activity ended with, if that is how it ended. */
export function failureType(err: unknown): string | undefined {
  return err instanceof ActivityFailure && err.cause instanceof ApplicationFailure
    ? (err.cause.type ?? undefined)
    : undefined;
}
