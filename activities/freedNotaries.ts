import { WorkflowNotFoundError } from '@temporalio/common';
import type { ActivityDependencies } from './dependencies';
import { sessionsWaitingForNotary } from '../src/network/waitingSessions';
import { networkNotaryFreeSignal } from '../core/session/messages';

/**
 * A network notary may have become free (an offer closed, a session let them go or ended): the sessions
 * waiting longest that may be offered them ask at once rather than at their next retry. A session that
 * ended meanwhile has nothing to hear.
 */
export async function tellSessionsNotaryIsFree(
  { sequelize, temporal }: Pick<ActivityDependencies, 'sequelize' | 'temporal'>,
  notary: { notaryId: string } | { offerId: string },
): Promise<void> {
  for (const { workflow_id } of await sessionsWaitingForNotary(sequelize, notary)) {
    try {
      await temporal.workflow.getHandle(workflow_id).signal(networkNotaryFreeSignal);
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
  }
}
