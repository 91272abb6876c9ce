import { WorkflowNotFoundError } from '@temporalio/common';
import type { ActivityDependencies } from './dependencies';
import { queryRows } from '../src/db/query';
import { networkCommissionDates } from '../src/network/commissionHorizon';
import { notaryMayBeOfferedSql } from '../src/network/offerEligibility';
import { networkNotaryFreeSignal } from '../core/session/messages';

/** Sessions told of one notary at once: a few more than one, as the first may take another notary. */
const TOLD_AT_ONCE = 5;

/**
 * A network notary may have become free (an offer closed, a session let them go or ended): the sessions
 * that have sought a notary longest and may be offered this one are told, and ask at once rather than at
 * their next retry. A session that ended meanwhile has nothing to hear.
 */
export async function tellSessionsNotaryIsFree(
  { sequelize, temporal }: Pick<ActivityDependencies, 'sequelize' | 'temporal'>,
  notary: { notaryId: string } | { offerId: string },
): Promise<void> {
  const notaryIs =
    'notaryId' in notary ? 'n.id = $1' : 'n.id = (SELECT notary_id FROM notary_offers WHERE id = $1)';
  const waiting = await queryRows<{ workflow_id: string }>(
    sequelize,
    `SELECT s.workflow_id FROM sessions s JOIN network_notaries n ON ${notaryIs}
      WHERE s.status = 'awaiting_notary' AND s.notary_sought_since IS NOT NULL
        AND s.plan -> 'notary' ->> 'kind' = 'network'
        AND NOT EXISTS (SELECT 1 FROM notary_offers o WHERE o.session_id = s.id AND o.outcome = 'open')
        AND ${notaryMayBeOfferedSql('n', 's.id', "(s.plan -> 'notary' ->> 'state')", '$2')}
      ORDER BY s.notary_sought_since, s.id
      LIMIT ${TOLD_AT_ONCE}`,
    { bind: ['notaryId' in notary ? notary.notaryId : notary.offerId, networkCommissionDates(Date.now())] },
  );
  for (const { workflow_id } of waiting) {
    try {
      await temporal.workflow.getHandle(workflow_id).signal(networkNotaryFreeSignal);
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
  }
}
