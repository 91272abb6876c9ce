import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { WorkflowExecutionDescription, WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { eventually } from './eventually';
import { testEnvironment } from './environment';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** Waits until the workflow (its latest run) is running, as an operator would see it; answers its description. */
export async function untilRunning(
  handle: WorkflowHandle,
  what: string,
): Promise<WorkflowExecutionDescription> {
  const described = await eventually(
    () => handle.describe().catch(() => undefined),
    (description) => description?.status.name === 'RUNNING',
    what,
  );
  return described!;
}

const WORKFLOW_TASK_EVENTS = new Set([
  temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED,
  temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED,
  temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
  temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT,
  temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED,
]);

/**
 * Waits until the workflow has no task in flight: what its last task's local steps recorded in the
 * database is then in its history too, so a reset to its last task starts from there.
 */
export async function untilIdle(handle: WorkflowHandle, what: string): Promise<void> {
  await eventually(
    async () =>
      (await handle.fetchHistory()).events!.filter((e) => WORKFLOW_TASK_EVENTS.has(e.eventType!)).at(-1)
        ?.eventType,
    (last) => last === temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
    what,
  );
}

/** Asserts that no task of the workflow's history failed (a failing task stalls the workflow). */
export async function assertNoWorkflowTaskFailed(handle: WorkflowHandle, message: string): Promise<void> {
  const { events } = await handle.fetchHistory();
  assert.ok(
    !events!.some((e) => e.eventType === temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED),
    message,
  );
}

/** The reset point before the first event of a history that `isPoint` picks: the last task completed before it. */
export function lastTaskBefore(
  events: HistoryEvent[],
  isPoint: (event: HistoryEvent) => boolean,
): HistoryEvent {
  return events
    .slice(0, events.findIndex(isPoint))
    .reverse()
    .find((e) => e.eventType === temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)!;
}

/** An operator's reset of a workflow to the end of one of its workflow tasks; answers the run it starts. */
export async function resetTo(
  workflowId: string,
  taskEnd: HistoryEvent,
  reason: string,
): Promise<WorkflowHandle> {
  const { client } = testEnvironment().runtime.temporal;
  const { runId } = await client.workflowService.resetWorkflowExecution({
    namespace: client.options.namespace,
    workflowExecution: { workflowId },
    workflowTaskFinishEventId: taskEnd.eventId,
    reason: `test: ${reason}`,
    requestId: crypto.randomUUID(),
  });
  return client.workflow.getHandle(workflowId, runId!);
}
