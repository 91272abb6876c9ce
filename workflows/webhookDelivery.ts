import { proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities';

export interface WebhookDeliveryInput {
  deliveryId: string;
  /** Waits between attempts, in milliseconds: WEBHOOK_RETRY_SCHEDULE when the event was published. */
  retryDelaysMs: number[];
}

// One HTTP attempt per activity: the retry schedule is the business rule below, not Temporal's backoff.
// Only infrastructure failures (the worker dying mid-attempt) are retried by Temporal.
const { attemptWebhookDelivery } = proxyActivities<Activities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', maximumAttempts: 3 },
});

/**
 * At-least-once delivery of one event to one endpoint, as its own workflow so that a slow or dead
 * receiver never delays the session: attempt, and on failure wait the next step of the schedule.
 */
export async function webhookDeliveryWorkflow(
  input: WebhookDeliveryInput,
): Promise<'delivered' | 'failed' | 'disabled'> {
  for (let attempt = 0; ; attempt++) {
    const isLastAttempt = attempt >= input.retryDelaysMs.length;
    const outcome = await attemptWebhookDelivery({ deliveryId: input.deliveryId, isLastAttempt });
    if (outcome !== 'retry') return outcome;
    if (isLastAttempt) return 'failed';
    await sleep(input.retryDelaysMs[attempt]);
  }
}
