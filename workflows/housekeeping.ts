import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

const { deleteExpiredRecords } = proxyActivities<Activities>({
  startToCloseTimeout: '5m',
  retry: { maximumAttempts: 5 },
});

/** Run by the `housekeeping` Schedule: drops records whose lifetime is over (idempotency keys, refresh tokens). */
export async function housekeepingWorkflow(): Promise<{ idempotencyKeys: number; refreshTokens: number }> {
  return deleteExpiredRecords();
}
