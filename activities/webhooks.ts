import type { AttemptDelivery } from '../src/webhooks/deliveryAttempt';

export function webhookActivities(attemptDelivery: AttemptDelivery) {
  return {
    /** One attempt of a delivery, for the delivery workflow's schedule. */
    attemptWebhookDelivery: attemptDelivery,
  };
}
