import { CancellationScope, isCancellation, proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { WebhookDeliveryInput, WebhookDeliveryOutcome } from './webhookDeliveryDefinitions';

// One HTTP attempt per activity: the retry schedule is the business rule below, not Temporal's backoff.
// The receiver's answer, or its silence, is a value the activity returns. What Temporal retries is the
// activity's own infrastructure (PostgreSQL down, a worker dying mid-attempt): until it passes, or the
// event would be lost with its delivery left pending and no workflow behind it.
const { attemptWebhookDelivery, giveUpWebhookDelivery } = proxyActivities<Activities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
});

/**
 * At-least-once delivery of one event to one endpoint, as its own workflow so that a slow or dead
 * receiver never delays the session: attempt, and on failure wait the next step of the schedule. The
 * publisher usually made the first attempt already (src/webhooks/firstAttempts.ts); then this workflow
 * exists only when that attempt did not deliver, and starts at the schedule's next step.
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<WebhookDeliveryOutcome> {
  try {
    return await deliver(input);
  } catch (err) {
    // An operator stopped the retries (Temporal's cancellation): the delivery is recorded as given up
    // before the workflow ends cancelled, or it would read pending with nothing left to carry it.
    if (isCancellation(err))
      await CancellationScope.nonCancellable(() => giveUpWebhookDelivery({ deliveryId: input.deliveryId }));
    throw err;
  }
}

async function deliver(input: WebhookDeliveryInput): Promise<WebhookDeliveryOutcome> {
  if (input.firstAttemptAfterMs !== undefined) await sleep(input.firstAttemptAfterMs);
  for (let attempt = 0; ; attempt++) {
    const isLastAttempt = attempt >= input.retryDelaysMs.length;
    const outcome = await attemptWebhookDelivery({ deliveryId: input.deliveryId, isLastAttempt });
    if (outcome !== 'retry') return outcome;
    if (isLastAttempt) return 'failed';
    await sleep(input.retryDelaysMs[attempt]);
  }
}
