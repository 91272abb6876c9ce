import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { Config } from '../config';
import { WORKFLOW_TYPES } from '../../core/temporal/workflows';

export const LOGIN_LINK_CLEANUP_SCHEDULE = 'login-link-cleanup';
export const HOUSEKEEPING_SCHEDULE = 'housekeeping';
export const TERMINATED_WORKFLOW_SWEEP_SCHEDULE = 'terminated-workflow-sweep';

interface ScheduleDefinition {
  scheduleId: string;
  workflowType: string;
  everyMs: number;
  description: string;
}

/**
 * The service's Temporal Schedules, created on worker start and brought up to date when they exist,
 * so operators see and can pause or trigger them in the Temporal UI.
 */
export async function ensureSchedules(client: Client, config: Config): Promise<void> {
  const schedules: ScheduleDefinition[] = [
    {
      scheduleId: LOGIN_LINK_CLEANUP_SCHEDULE,
      workflowType: WORKFLOW_TYPES.loginLinkCleanup,
      everyMs: config.loginLinkCleanupIntervalMs,
      description: 'Deletes login links past their 12-hour lifetime',
    },
    {
      scheduleId: HOUSEKEEPING_SCHEDULE,
      workflowType: WORKFLOW_TYPES.housekeeping,
      everyMs: 60 * 60 * 1000,
      description: 'Deletes expired idempotency keys and refresh tokens',
    },
    {
      scheduleId: TERMINATED_WORKFLOW_SWEEP_SCHEDULE,
      workflowType: WORKFLOW_TYPES.terminatedWorkflowSweep,
      everyMs: 60 * 1000,
      description:
        'Ends what terminated workflows left unfinished: sessions recorded cancelled (session_cancelled published), webhook deliveries recorded failed',
    },
  ];
  for (const schedule of schedules) await ensureSchedule(client, config, schedule);
}

async function ensureSchedule(client: Client, config: Config, schedule: ScheduleDefinition): Promise<void> {
  const spec = { intervals: [{ every: schedule.everyMs }] };
  try {
    await client.schedule.create({
      scheduleId: schedule.scheduleId,
      spec,
      action: {
        type: 'startWorkflow',
        workflowType: schedule.workflowType,
        taskQueue: config.taskQueue,
        args: [],
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
      memo: { description: schedule.description },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await client.schedule.getHandle(schedule.scheduleId).update((current) => ({ ...current, spec }));
  }
}
