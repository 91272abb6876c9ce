import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { RETRY_UNTIL_IT_PASSES } from './sessionActivities';
import { publishSessionEvent } from './publishing';

const { findStrandedSessions, giveUpStrandedDeliveries } = proxyActivities<Activities>({
  startToCloseTimeout: '5m',
  heartbeatTimeout: '30s',
  retry: RETRY_UNTIL_IT_PASSES,
});
const db = proxyActivities<Activities>({ startToCloseTimeout: '10s', retry: RETRY_UNTIL_IT_PASSES });

/**
 * Run by the `terminated-workflow-sweep` Schedule. A terminated workflow leaves what it carried where it
 * was, with nothing left to finish it.
 * - A session would read unfinished for good, its signing links stay open, and its integrator never
 *   hear. Each is ended as a cancel ends a session: recorded `cancelled`, then `session_cancelled`
 *   published, under the id the session itself would have given it, so a sweep run again publishes it
 *   once.
 * - A webhook delivery would read `pending` for good: it is recorded failed, which the integrator can
 *   redeliver.
 */
export async function terminatedWorkflowSweepWorkflow(): Promise<{
  cancelledSessions: string[];
  failedDeliveries: string[];
}> {
  const stranded = await findStrandedSessions();
  for (const { sessionId, documentsStatus } of stranded) {
    await db.recordStatus({ sessionId, status: 'cancelled', documentsStatus });
    await publishSessionEvent(db, {
      sessionId,
      status: 'cancelled',
      event: 'session_cancelled',
      data: { cancelled_by: 'operator' },
      // Published once in a session's life: its id is the session's and the event's alone.
      occurrence: { generation: 0, nth: 1 },
    });
  }
  const failedDeliveries = await giveUpStrandedDeliveries();
  return { cancelledSessions: stranded.map((s) => s.sessionId), failedDeliveries };
}
