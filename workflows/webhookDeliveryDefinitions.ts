/** What a webhook delivery workflow is started with: shared by the session workflow and the activity that publishes events. */
export interface WebhookDeliveryInput {
  deliveryId: string;
  /** Waits between attempts, in milliseconds: WEBHOOK_RETRY_SCHEDULE when the event was published. */
  retryDelaysMs: number[];
}

export type WebhookDeliveryOutcome = 'delivered' | 'failed' | 'disabled';
