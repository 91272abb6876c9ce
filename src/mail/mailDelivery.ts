import { TEMPORAL_DEADLINE_MS, type TemporalHandle } from '../temporal/client';
import { mailWorkflowIdOf, WORKFLOW_TYPES, type MailDeliveryWorkflow } from '../../core/temporal/workflows';

/** Hands one outbox e-mail to the worker; starting it again for the same e-mail is a no-op. */
export async function startMailDelivery(temporal: TemporalHandle, taskQueue: string, outboxId: string) {
  await temporal.connection.withDeadline(Date.now() + TEMPORAL_DEADLINE_MS, () =>
    temporal.client.workflow.start<MailDeliveryWorkflow>(WORKFLOW_TYPES.mailDelivery, {
      workflowId: mailWorkflowIdOf(outboxId),
      taskQueue,
      args: [{ outboxId }],
      workflowIdConflictPolicy: 'USE_EXISTING',
    }),
  );
}
