import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { ActivityDependencies } from './dependencies';
import type { DocumentsStatus } from '../workflows/sessionDefinitions';
import { queryRows } from '../src/db/query';
import { sessionEndedSql } from '../src/sessions/statusSql';

/** At most this many sessions are ended per sweep; the next sweep takes the rest. */
const SESSIONS_PER_SWEEP = 100;

/**
 * Session workflows Temporal closed without their last steps: an operator terminated them, or a limit
 * of Temporal's did. (A failed workflow is a defect an operator resets once it is fixed: left to them.)
 */
const CLOSED_OUTSIDE_THEIR_COURSE = `WorkflowType = 'sessionWorkflow' AND ExecutionStatus IN ('Terminated', 'TimedOut')`;

const SESSION_WORKFLOW_ID = /^session-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export interface StrandedSession {
  sessionId: string;
  documentsStatus: DocumentsStatus;
}

export function strandedSessionActivities({
  sequelize,
  temporal,
  logger,
}: Pick<ActivityDependencies, 'sequelize' | 'temporal' | 'logger'>) {
  const isRunning = async (workflowId: string): Promise<boolean> => {
    try {
      return (await temporal.workflow.getHandle(workflowId).describe()).status.name === 'RUNNING';
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return false;
      throw err;
    }
  };

  return {
    /**
     * Sessions left unfinished by a workflow closed outside its course, and sessions such a workflow
     * recorded cancelled without publishing `session_cancelled`. A terminated run whose workflow goes on
     * in another run (an operator's reset) is not one of them.
     */
    async findStrandedSessions(): Promise<StrandedSession[]> {
      const sessionIds = new Set<string>();
      for await (const execution of temporal.workflow.list({ query: CLOSED_OUTSIDE_THEIR_COURSE })) {
        const id = SESSION_WORKFLOW_ID.exec(execution.workflowId)?.[1];
        if (id) sessionIds.add(id);
        Context.current().heartbeat();
      }
      if (!sessionIds.size) return [];
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
        { bind: [[...sessionIds]] },
      );
      const stranded: StrandedSession[] = [];
      for (const row of rows) {
        if (stranded.length === SESSIONS_PER_SWEEP) break;
        Context.current().heartbeat();
        if (await isRunning(row.workflow_id)) continue;
        logger.warn(
          { sessionId: row.id, workflowId: row.workflow_id, status: row.status },
          'session workflow was terminated with the session unfinished: ending it as cancelled',
        );
        stranded.push({ sessionId: row.id, documentsStatus: row.documents_status });
      }
      return stranded;
    },
  };
}
