import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

// Retried until the database answers: the Schedule skips its next runs meanwhile (overlap SKIP), so a
// long outage costs one late cleanup rather than a pile of runs.
const { deleteExpiredLoginLinks } = proxyActivities<Activities>({
  startToCloseTimeout: '1m',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
});

/** Run by the `login-link-cleanup` Schedule: removes login links past their 12-hour lifetime. */
export async function loginLinkCleanupWorkflow(): Promise<{ deleted: number }> {
  return { deleted: await deleteExpiredLoginLinks() };
}
