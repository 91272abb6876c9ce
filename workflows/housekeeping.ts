import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

// Retried until the database answers: the Schedule skips its next runs meanwhile (overlap SKIP), so a
// long outage costs one late cleanup rather than a pile of runs.
const { deleteExpiredRecords } = proxyActivities<Activities>({
  startToCloseTimeout: '5m',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
});

/** Run by the `housekeeping` Schedule: drops records whose lifetime is over (idempotency keys, refresh tokens). */
export async function housekeepingWorkflow(): Promise<{ idempotencyKeys: number; refreshTokens: number }> {
  return deleteExpiredRecords();
}
