import type { WorkflowExecutionDescription, WorkflowHandle } from '@temporalio/client';
import { eventually } from './eventually';

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
