import type { SearchAttributePair } from '@temporalio/common';
import { TEMPORAL_DEADLINE_MS, type TemporalHandle } from '../temporal/client';
import { unavailable, UNAVAILABLE_MESSAGE } from '../domain/errors';
import type { SessionStatus } from '../../core/session/messages';
import type { SessionWorkflowInput } from '../../core/session/workflowInput';
import {
  NotarizationIdAttribute,
  SessionIdAttribute,
  SessionStatusAttribute,
} from '../../core/temporal/searchAttributes';
import { WORKFLOW_TYPES, type SessionWorkflow } from '../../core/temporal/workflows';

/**
 * For a request that holds a database transaction through its call to Temporal: refused at once (503)
 * while this process's calls find Temporal unreachable, so an outage does not hold the pool's connections.
 */
export function refuseWhileTemporalUnreachable(temporal: TemporalHandle): void {
  if (temporal.reachability.knownUnreachable()) throw unavailable(UNAVAILABLE_MESSAGE);
}

/** What operators find a session's workflow by in the Temporal UI, set when it starts. */
export function sessionSearchAttributes(
  input: Pick<SessionWorkflowInput, 'sessionId' | 'notarizationId'>,
  status: SessionStatus,
): SearchAttributePair[] {
  return [
    { key: SessionIdAttribute, value: input.sessionId },
    { key: SessionStatusAttribute, value: status },
    ...(input.notarizationId ? [{ key: NotarizationIdAttribute, value: input.notarizationId }] : []),
  ];
}

/** Starts a session's workflow with its search attributes, bounded by a deadline. */
export async function startSessionWorkflow(
  temporal: TemporalHandle,
  taskQueue: string,
  workflowId: string,
  input: SessionWorkflowInput,
  status: SessionStatus,
): Promise<void> {
  await temporal.connection.withDeadline(Date.now() + TEMPORAL_DEADLINE_MS, () =>
    temporal.client.workflow.start<SessionWorkflow>(WORKFLOW_TYPES.session, {
      workflowId,
      taskQueue,
      args: [input],
      typedSearchAttributes: sessionSearchAttributes(input, status),
    }),
  );
}

/** Ends a workflow whose session rows were not committed; if this fails, the workflow ends itself. */
export async function terminateQuietly(temporal: TemporalHandle, workflowId: string): Promise<void> {
  try {
    await temporal.connection.withDeadline(Date.now() + TEMPORAL_DEADLINE_MS, () =>
      temporal.client.workflow.getHandle(workflowId).terminate('session rows were not committed'),
    );
  } catch {
    // The workflow ends itself when it cannot find its session (confirmSessionRecorded).
  }
}
