import { heartbeat } from '@temporalio/activity';

const EVERY_MS = 2_000;

/**
 * Runs `work` while telling Temporal every two seconds that this worker is alive, so that an attempt
 * on a worker that died is retried after the activity's heartbeat timeout rather than its whole
 * start-to-close timeout. The work itself stays bounded by that start-to-close timeout.
 */
export async function whileHeartbeating<T>(work: () => Promise<T>): Promise<T> {
  heartbeat();
  const timer = setInterval(() => heartbeat(), EVERY_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
