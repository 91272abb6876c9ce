import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from '../logger';
import type { WebhookDeliveryInput } from '../../core/temporal/webhookDelivery';
import type { AttemptDelivery, AttemptOutcome } from './deliveryAttempt';

export interface FirstAttemptOptions {
  attemptDelivery: AttemptDelivery;
  logger: Logger;
  /** WEBHOOK_RETRY_SCHEDULE: the waits after the first attempt. */
  retryDelaysMs: number[];
  /** WEBHOOK_TIMEOUT: no attempt lasts longer. */
  timeoutMs: number;
  /** How long the publisher waits for the first attempts before it hands them to delivery workflows. */
  waitMs: number;
}

/** After an attempt's own timeout: by then it has ended (or its process has died). */
const IN_FLIGHT_MARGIN_MS = 5_000;

/**
 * The first attempt of each new delivery, made at once by whoever published the event rather than after
 * a delivery workflow is scheduled, so a receiver hears of an event in milliseconds even while the
 * workers are behind. The publisher waits for these attempts at most `waitMs` (a slow receiver holds
 * the session back no longer). What is not settled by then goes to a delivery workflow, which takes the
 * schedule's next step: after the schedule's first wait when the attempt failed, and once the attempt
 * has surely ended when it was still in flight, so the two never send at once.
 */
export async function attemptFirst(
  deliveryIds: string[],
  options: FirstAttemptOptions,
): Promise<WebhookDeliveryInput[]> {
  const { retryDelaysMs, timeoutMs } = options;
  const settled = new Map<string, AttemptOutcome | 'unrecorded'>();
  const attempts = deliveryIds.map((deliveryId) =>
    options.attemptDelivery({ deliveryId, isLastAttempt: retryDelaysMs.length === 0 }).then(
      (outcome) => settled.set(deliveryId, outcome),
      (err: unknown) => {
        options.logger.warn(
          { err, deliveryId },
          'first webhook attempt not recorded; its workflow takes over',
        );
        settled.set(deliveryId, 'unrecorded');
      },
    ),
  );
  const waited = new AbortController();
  await Promise.race([
    Promise.all(attempts),
    delay(options.waitMs, undefined, { signal: waited.signal }),
  ]).catch(() => undefined);
  waited.abort();

  const handOver: WebhookDeliveryInput[] = [];
  for (const deliveryId of deliveryIds) {
    const outcome = settled.get(deliveryId);
    if (outcome === 'unrecorded') {
      handOver.push({ deliveryId, retryDelaysMs });
    } else if (outcome === undefined) {
      handOver.push({
        deliveryId,
        retryDelaysMs: retryDelaysMs.slice(1),
        firstAttemptAfterMs: Math.max(retryDelaysMs[0] ?? 0, timeoutMs + IN_FLIGHT_MARGIN_MS),
      });
    } else if (outcome === 'retry' && retryDelaysMs.length > 0) {
      handOver.push({
        deliveryId,
        retryDelaysMs: retryDelaysMs.slice(1),
        firstAttemptAfterMs: retryDelaysMs[0],
      });
    }
  }
  return handOver;
}
