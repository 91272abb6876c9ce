import type { ActivityDependencies } from './dependencies';
import { sessionActivities } from './sessions';
import { eventActivities } from './events';
import { webhookActivities } from './webhooks';
import { mailActivities } from './mail';
import { housekeepingActivities } from './housekeeping';
import { documentActivities } from './documents';
import { networkActivities } from './network';

export type { ActivityDependencies };

/**
 * Activities are built from their dependencies, so the worker and the tests wire them the same way;
 * each one is thin I/O and idempotent, since Temporal may run it more than once.
 */
export function createActivities(deps: ActivityDependencies) {
  return {
    ...sessionActivities(deps),
    ...eventActivities(deps),
    ...webhookActivities(deps),
    ...mailActivities(deps),
    ...housekeepingActivities(deps),
    ...documentActivities(deps),
    ...networkActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
