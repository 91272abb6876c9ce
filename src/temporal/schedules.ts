import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { Config } from '../config';

export const LOGIN_LINK_CLEANUP_SCHEDULE = 'login-link-cleanup';

/**
 * The service's Temporal Schedules, created on worker start and brought up to date when they exist,
 * so operators see and can pause or trigger them in the Temporal UI.
 */
export async function ensureSchedules(client: Client, config: Config): Promise<void> {
  const spec = { intervals: [{ every: config.loginLinkCleanupIntervalMs }] };
  try {
    await client.schedule.create({
      scheduleId: LOGIN_LINK_CLEANUP_SCHEDULE,
      spec,
      action: {
        type: 'startWorkflow',
        workflowType: 'loginLinkCleanupWorkflow',
        taskQueue: config.taskQueue,
        args: [],
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
      memo: { description: 'Deletes login links past their 12-hour lifetime' },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await client.schedule.getHandle(LOGIN_LINK_CLEANUP_SCHEDULE).update((current) => ({ ...current, spec }));
  }
}
