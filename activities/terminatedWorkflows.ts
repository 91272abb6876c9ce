import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { ActivityDependencies } from './dependencies';
import { workflowIdOf, type DocumentsStatus } from '../core/session/messages';
import { deliveryWorkflowIdOf } from '../core/temporal/webhookDelivery';
import { WORKFLOW_TYPES } from '../core/temporal/workflows';
import { queryRows } from '../src/db/query';
import { isUuid } from '../src/ids';
import { sessionEndedSql } from '../core/session/statusSql';
import { giveUpDelivery } from '../src/webhooks/deliveryAttempt';

/** At most this many sessions, and as many deliveries, are settled per sweep; the next takes the rest. */
const PER_SWEEP = 100;

const UUID_LENGTH = 36;

/**
 * Workflows Temporal closed without their last steps: an operator terminated them, or a limit of
 * Temporal's did. (A failed workflow is a defect an operator resets once it is fixed: left to them.)
 */
const closedOutsideTheirCourse = (workflowType: string) =>
  `WorkflowType = '${workflowType}' AND ExecutionStatus IN ('Terminated', 'TimedOut')`;

export interface StrandedSession {
  sessionId: string;
  documentsStatus: DocumentsStatus;
}

type SweepDependencies = Pick<ActivityDependencies, 'temporal'>;

async function isRunning({ temporal }: SweepDependencies, workflowId: string): Promise<boolean> {
  try {
    return (await temporal.workflow.getHandle(workflowId).describe()).status.name === 'RUNNING';
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

/** The ids whose workflow (`idOf` names it) of this type was closed outside its course. */
async function closedIds(
  { temporal }: SweepDependencies,
  workflowType: string,
  idOf: (id: string) => string,
): Promise<string[]> {
  const ids = new Set<string>();
  for await (const execution of temporal.workflow.list({ query: closedOutsideTheirCourse(workflowType) })) {
    const id = execution.workflowId.slice(-UUID_LENGTH);
    if (isUuid(id) && idOf(id) === execution.workflowId) ids.add(id);
    Context.current().heartbeat();
  }
  return [...ids];
}

/**
 * What the terminated-workflow sweep asks: which sessions and webhook deliveries a terminated workflow
 * left unfinished, with no run of its workflow id going on (an operator's reset, a redelivery, starts
 * one under the same id).
 */
export function terminatedWorkflowActivities(
  deps: Pick<ActivityDependencies, 'sequelize' | 'temporal' | 'logger'>,
) {
  const { sequelize, logger } = deps;
  return {
    /**
     * Sessions left unfinished by a workflow closed outside its course, and sessions such a workflow
     * recorded cancelled without publishing `session_cancelled`.
     */
    async findStrandedSessions(): Promise<StrandedSession[]> {
      const sessionIds = await closedIds(deps, WORKFLOW_TYPES.session, workflowIdOf);
      if (!sessionIds.length) return [];
      const rows = await queryRows<{
        id: string;
        workflow_id: string;
        status: string;
        documents_status: DocumentsStatus;
      }>(
        sequelize,
        `SELECT s.id, s.workflow_id, s.status, s.documents_status FROM sessions s
          WHERE s.id = ANY ($1::uuid[])
            AND (NOT ${sessionEndedSql('s')}
                 OR (s.status = 'cancelled' AND NOT EXISTS (
                       SELECT 1 FROM events e WHERE e.session_id = s.id AND e.event = 'session_cancelled')))
          ORDER BY s.created_at, s.id`,
        { bind: [sessionIds] },
      );
      const stranded: StrandedSession[] = [];
      for (const row of rows) {
        if (stranded.length === PER_SWEEP) break;
        Context.current().heartbeat();
        if (await isRunning(deps, row.workflow_id)) continue;
        logger.warn(
          { sessionId: row.id, workflowId: row.workflow_id, status: row.status },
          'session workflow was terminated with the session unfinished: ending it as cancelled',
        );
        stranded.push({ sessionId: row.id, documentsStatus: row.documents_status });
      }
      return stranded;
    },

    /**
     * Deliveries left `pending` by a delivery workflow closed outside its course are recorded given up
     * (`failed`), as a cancelled one records itself: the integrator sees them failed and may redeliver,
     * rather than wait on one no workflow carries. Answers their ids.
     */
    async giveUpStrandedDeliveries(): Promise<string[]> {
      const deliveryIds = await closedIds(deps, WORKFLOW_TYPES.webhookDelivery, deliveryWorkflowIdOf);
      if (!deliveryIds.length) return [];
      const pending = await queryRows<{ id: string }>(
        sequelize,
        `SELECT id FROM webhook_deliveries WHERE id = ANY ($1::uuid[]) AND status = 'pending' ORDER BY created_at, id`,
        { bind: [deliveryIds] },
      );
      const givenUp: string[] = [];
      for (const { id } of pending) {
        if (givenUp.length === PER_SWEEP) break;
        Context.current().heartbeat();
        if (await isRunning(deps, deliveryWorkflowIdOf(id))) continue;
        if (!(await giveUpDelivery(sequelize, id))) continue;
        logger.warn({ deliveryId: id }, 'webhook delivery workflow was terminated: delivery recorded failed');
        givenUp.push(id);
      }
      return givenUp;
    },
  };
}
