import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

const { deleteExpiredLoginLinks } = proxyActivities<Activities>({
  startToCloseTimeout: '1m',
  retry: { maximumAttempts: 5 },
});

/** Run by the `login-link-cleanup` Schedule: removes login links past their 12-hour lifetime. */
export async function loginLinkCleanupWorkflow(): Promise<{ deleted: number }> {
  return { deleted: await deleteExpiredLoginLinks() };
}
