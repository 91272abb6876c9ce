import { defineSignal } from '@temporalio/workflow';

/** What a webhook delivery workflow is started with: shared by the session workflow and the activity that publishes events. */
export interface WebhookDeliveryInput {
  deliveryId: string;
  /** Waits between attempts, in milliseconds: WEBHOOK_RETRY_SCHEDULE when the event was published. */
  retryDelaysMs: number[];
  /**
   * Set when the publisher made the first attempt itself: wait this long before this workflow's first
   * attempt. Absent (a redelivery's workflow): attempt at once.
   */
  firstAttemptAfterMs?: number;
  /**
   * Set when an earlier run of this delivery continued as new: the schedule its first run was started on,
   * which a redelivery asked for without one follows (`retryDelaysMs` is then what was left of the
   * schedule that run was on).
   */
  startedOnRetryDelaysMs?: number[];
}

export type WebhookDeliveryOutcome = 'delivered' | 'failed' | 'disabled';

/** The one workflow a delivery has at a time: its first, or a redelivery's once an earlier one had closed. */
export function deliveryWorkflowIdOf(deliveryId: string): string {
  return `webhook-delivery-${deliveryId}`;
}

/** What the redeliver signal carries: the schedule to wait after the attempt it asks for. */
export type RedeliverArgs = [{ retryDelaysMs?: number[] }?];

/**
 * The integrator's redeliver, to the workflow carrying the delivery: attempt now, then wait these steps.
 * An operator may send it from the Temporal UI without them: the workflow's own schedule then.
 */
export const redeliverSignal = defineSignal<RedeliverArgs>('redeliver');
