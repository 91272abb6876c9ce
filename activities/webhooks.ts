import type { ActivityDependencies } from './dependencies';
import type { AttemptDelivery } from '../src/webhooks/deliveryAttempt';
import { execute } from '../src/db/query';

export function webhookActivities({ sequelize }: ActivityDependencies, attemptDelivery: AttemptDelivery) {
  return {
    /** One attempt of a delivery, for the delivery workflow's schedule. */
    attemptWebhookDelivery: attemptDelivery,

    /**
     * Records a delivery whose retries were stopped as given up, as after its last attempt: the integrator
     * then sees it failed and may ask for it again, rather than wait on one that no workflow carries. A
     * delivery an attempt delivered meanwhile stays delivered.
     */
    async giveUpWebhookDelivery({ deliveryId }: { deliveryId: string }): Promise<void> {
      await execute(
        sequelize,
        `UPDATE webhook_deliveries SET status = 'failed', updated_at = now() WHERE id = $1 AND status = 'pending'`,
        { bind: [deliveryId] },
      );
    },
  };
}
