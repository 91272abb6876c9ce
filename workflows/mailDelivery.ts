import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

// An unreachable mail server is an outage: retried until it answers. A refusal for good is the answer.
const { sendOutboxMessage } = proxyActivities<Activities>({
  startToCloseTimeout: '2m',
  heartbeatTimeout: '30s',
  retry: { initialInterval: '5s', backoffCoefficient: 2, maximumInterval: '10m' },
});

/** Sends one e-mail of the outbox that belongs to no session (workflow id `mail-{outboxId}`). */
export async function mailDeliveryWorkflow({ outboxId }: { outboxId: string }): Promise<string> {
  return sendOutboxMessage({ outboxId });
}
