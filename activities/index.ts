import type { ActivityDependencies } from './dependencies';
import { sessionActivities, teamNotaryActivities } from './sessions';
import { eventActivities } from './events';
import { webhookActivities } from './webhooks';
import { deliveryAttempts } from '../src/webhooks/deliveryAttempt';
import { mailActivities } from './mail';
import { housekeepingActivities } from './housekeeping';
import { documentActivities, journalActivities } from './documents';
import { networkAcceptanceActivities, networkActivities, networkWitnessActivities } from './network';
import { terminatedWorkflowActivities } from './terminatedWorkflows';
import { mediaActivities } from './media';
import { signingActivities } from './signing';

export type { ActivityDependencies };

/**
 * Activities are built from their dependencies, so the worker and the tests wire them the same way;
 * each one is thin I/O and idempotent, since Temporal may run it more than once.
 */
export function createActivities(deps: ActivityDependencies) {
  const attemptDelivery = deliveryAttempts(deps);
  return {
    ...sessionActivities(deps),
    ...teamNotaryActivities(deps),
    ...eventActivities(deps, attemptDelivery),
    ...webhookActivities(deps, attemptDelivery),
    ...mailActivities(deps),
    ...housekeepingActivities(deps),
    ...documentActivities(deps),
    ...journalActivities(deps),
    ...networkActivities(deps),
    ...networkAcceptanceActivities(deps),
    ...networkWitnessActivities(deps),
    ...terminatedWorkflowActivities(deps),
    ...mediaActivities(deps),
    ...signingActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;

export { mediaMakingActivities } from './mediaMaking';
export type MediaMakingActivities = ReturnType<typeof import('./mediaMaking').mediaMakingActivities>;
