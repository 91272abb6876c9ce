import crypto from 'node:crypto';
import { isGrpcServiceError, ServiceError, type WorkflowUpdateOptions } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import { google } from '@temporalio/proto';
import type { TemporalHandle } from './client';

const GRPC_FAILED_PRECONDITION = 9;
const WORKFLOW_NOT_READY = 'type.googleapis.com/temporal.api.errordetails.v1.WorkflowNotReadyFailure';
// The server runs a workflow task of its own right after the failed one; an update sent again while that
// task runs was held about 1.5 s on the dev server, one sent after it (50-100 ms later) took 50 ms.
const FIRST_PAUSE_MS = 100;
const LONGEST_PAUSE_MS = 400;

/**
 * The server aborting an update it had not accepted, because the workflow task that carried it failed:
 * e.g. the task would close the workflow while an activity's completion had just arrived (UnhandledCommand).
 * The server runs a new task at once; the update was never applied, so sending it again is safe.
 * Told by the failure's type in the gRPC status details (the server's WorkflowNotReady), not its message,
 * which a server release may reword.
 */
export function workflowNotReady(err: unknown): boolean {
  const cause = err instanceof ServiceError ? err.cause : err;
  if (!isGrpcServiceError(cause) || cause.code !== GRPC_FAILED_PRECONDITION) return false;
  const details = cause.metadata?.get('grpc-status-details-bin')[0];
  if (!Buffer.isBuffer(details)) return false;
  try {
    return google.rpc.Status.decode(details).details.some((d) => d.type_url === WORKFLOW_NOT_READY);
  } catch {
    return false;
  }
}

/**
 * Runs an update of a workflow to its result by `deadline` (epoch ms). An update aborted before it was
 * accepted (workflowNotReady) is sent again under the same update id, so it is applied at most once.
 * Past the deadline, the last failure is thrown (isUnavailable counts an abort as the service not ready).
 */
export async function executeUpdate<Ret, Args extends unknown[]>(
  temporal: TemporalHandle,
  workflowId: string,
  update: UpdateDefinition<Ret, Args>,
  args: Args,
  deadline: number,
): Promise<Ret> {
  const handle = temporal.client.workflow.getHandle(workflowId);
  // The SDK's overloads tell updates with and without arguments apart; one signature serves both here.
  const send = handle.executeUpdate.bind(handle) as (
    def: UpdateDefinition<Ret, Args>,
    options: WorkflowUpdateOptions & { args: Args },
  ) => Promise<Ret>;
  const updateId = crypto.randomUUID();
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    try {
      return await temporal.connection.withDeadline(deadline, () => send(update, { args, updateId }));
    } catch (err) {
      if (!workflowNotReady(err) || Date.now() + pause >= deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
