import {
  CancellationScope,
  condition,
  continueAsNew,
  isCancellation,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { historyPast } from './history';
import {
  redeliverSignal,
  type WebhookDeliveryInput,
  type WebhookDeliveryOutcome,
} from '../core/temporal/webhookDelivery';

// One HTTP attempt per activity: the retry schedule is the business rule below, not Temporal's backoff.
// The receiver's answer, or its silence, is a value the activity returns. What Temporal retries is the
// activity's own infrastructure (PostgreSQL down, a worker dying mid-attempt): until it passes, or the
// event would be lost with its delivery left pending and no workflow behind it.
const { attemptWebhookDelivery, giveUpWebhookDelivery } = proxyActivities<Activities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
});

/**
 * A delivery's own life is tens of events; redeliveries an integrator keeps asking for while it is
 * retried add about a dozen each, which would reach Temporal's history limit (and its termination of the
 * workflow) within minutes at the API's rate limit.
 */
const HISTORY_LIMIT = 1_000;

/**
 * A redelivery the integrator asked for while this workflow carries the delivery. It is taken here
 * rather than by a workflow of its own replacing this one: a terminated run is work for the
 * terminated-workflow sweep, and one an integrator could make at will.
 */
class Redeliveries {
  /** The schedule of the one asked for last and not yet taken. */
  private asked?: number[];

  /** @param ownSchedule the schedule the delivery was started on: a redelivery asked for without one follows it. */
  constructor(readonly ownSchedule: number[]) {
    setHandler(redeliverSignal, (asked) => {
      const steps = asked?.retryDelaysMs;
      // A signal's input is not checked on its way in: a malformed one must not fail the workflow's task.
      const wellFormed =
        Array.isArray(steps) && steps.every((ms) => typeof ms === 'number' && Number.isFinite(ms) && ms >= 0);
      this.asked = wellFormed ? steps : ownSchedule;
    });
  }

  pending(): boolean {
    return this.asked !== undefined;
  }

  /** The schedule of the one asked for since the last `take`, which answers it. */
  take(): number[] | undefined {
    const asked = this.asked;
    this.asked = undefined;
    return asked;
  }

  /** Waits `ms`, or less when one is asked for meanwhile. */
  async wait(ms: number): Promise<void> {
    await condition(() => this.pending(), ms);
  }
}

/**
 * At-least-once delivery of one event to one endpoint, as its own workflow so that a slow or dead
 * receiver never delays the session: attempt, and on failure wait the next step of the schedule. The
 * publisher usually made the first attempt already (src/webhooks/firstAttempts.ts); then this workflow
 * exists only when that attempt did not deliver, and starts at the schedule's next step. A redelivery
 * asked for meanwhile is attempted at once, and the schedule starts again from it. A run whose history
 * grew long continues as new where it was on its schedule, as the publisher's hand-over does.
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<WebhookDeliveryOutcome> {
  try {
    return await deliver(input, new Redeliveries(input.startedOnRetryDelaysMs ?? input.retryDelaysMs));
  } catch (err) {
    // An operator stopped the retries (Temporal's cancellation): the delivery is recorded as given up
    // before the workflow ends cancelled, or it would read pending with nothing left to carry it.
    if (isCancellation(err))
      await CancellationScope.nonCancellable(() => giveUpWebhookDelivery({ deliveryId: input.deliveryId }));
    throw err;
  }
}

async function deliver(
  input: WebhookDeliveryInput,
  redeliveries: Redeliveries,
): Promise<WebhookDeliveryOutcome> {
  if (input.firstAttemptAfterMs !== undefined) await redeliveries.wait(input.firstAttemptAfterMs);
  let schedule = input.retryDelaysMs;
  for (let attempt = 0; ; attempt++) {
    const redelivery = redeliveries.take();
    if (redelivery) [schedule, attempt] = [redelivery, 0];
    const isLastAttempt = attempt >= schedule.length;
    const outcome = await attemptWebhookDelivery({ deliveryId: input.deliveryId, isLastAttempt });
    // Asked for during the attempt: one more, on the new schedule, whatever this one answered (a delivery
    // it delivered is not sent again: the next attempt finds it delivered).
    if (redeliveries.pending()) continue;
    if (outcome !== 'retry') return outcome;
    if (isLastAttempt) return 'failed';
    if (historyIsLong())
      return continueAsNew<typeof webhookDeliveryWorkflow>({
        deliveryId: input.deliveryId,
        retryDelaysMs: schedule.slice(attempt + 1),
        firstAttemptAfterMs: schedule[attempt],
        startedOnRetryDelaysMs: redeliveries.ownSchedule,
      });
    await redeliveries.wait(schedule[attempt]);
  }
}

function historyIsLong(): boolean {
  return historyPast(HISTORY_LIMIT);
}
