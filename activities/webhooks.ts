import type { ActivityDependencies } from './dependencies';
import { giveUpDelivery, type AttemptDelivery } from '../src/webhooks/deliveryAttempt';

export function webhookActivities({ sequelize }: ActivityDependencies, attemptDelivery: AttemptDelivery) {
  return {
    /** One attempt of a delivery, for the delivery workflow's schedule. */
    attemptWebhookDelivery: attemptDelivery,

    /** A delivery whose retries an operator cancelled, recorded given up (`giveUpDelivery`). */
    async giveUpWebhookDelivery({ deliveryId }: { deliveryId: string }): Promise<void> {
      await giveUpDelivery(sequelize, deliveryId);
    },
  };
}
