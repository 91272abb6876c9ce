import type { Sequelize, Transaction } from 'sequelize';
import type { ActivityDependencies } from './dependencies';
import { appendAuditRecord } from '../src/audit/auditChain';
import type { EventData, EventName } from '../core/session/events';
import type { SessionStatus } from '../core/session/messages';
import type { WebhookDeliveryInput } from '../core/temporal/webhookDelivery';
import { execute, queryRows } from '../src/db/query';
import { inTransaction } from '../src/db/transaction';
import type { AttemptDelivery } from '../src/webhooks/deliveryAttempt';
import { attemptFirst } from '../src/webhooks/firstAttempts';

/** What a slow receiver may cost the session per event: the publisher waits no longer for it. */
const FIRST_ATTEMPT_WAIT_MS = 250;

export interface PublishEventInput {
  eventId: string;
  sessionId: string;
  event: EventName;
  /** Absent: the session's status as recorded (an event published outside the session's workflow). */
  status?: SessionStatus;
  data: EventData[EventName];
}

/**
 * Records the event (contract §5 body), its audit record and one pending delivery per subscribed, enabled
 * endpoint; answers the deliveries still pending. A retried publish keeps what the first recorded.
 */
async function recordEvent(
  sequelize: Sequelize,
  input: PublishEventInput,
  transaction: Transaction,
): Promise<string[]> {
  const sessions = await queryRows<{
    account_id: string;
    notarization_id: string | null;
    test_mode: boolean;
    status: SessionStatus;
  }>(sequelize, 'SELECT account_id, notarization_id, test_mode, status FROM sessions WHERE id = $1', {
    bind: [input.sessionId],
    transaction,
  });
  const session = sessions[0];
  const payload = {
    id: input.eventId,
    event: input.event,
    created_at: new Date().toISOString(),
    bn_session_id: input.sessionId,
    notarization_id: session.notarization_id ?? '',
    status: input.status ?? session.status,
    data: input.data,
    ...(session.test_mode ? { test: true } : {}),
  };
  await execute(
    sequelize,
    `INSERT INTO events (id, account_id, session_id, event, payload) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (id) DO NOTHING`,
    {
      bind: [input.eventId, session.account_id, input.sessionId, input.event, JSON.stringify(payload)],
      transaction,
    },
  );
  // A retried publish keeps the payload (and created_at) recorded the first time.
  const stored = await queryRows<{ payload: unknown }>(
    sequelize,
    'SELECT payload FROM events WHERE id = $1',
    {
      bind: [input.eventId],
      transaction,
    },
  );
  await appendAuditRecord(sequelize, transaction, {
    sessionId: input.sessionId,
    eventId: input.eventId,
    event: input.event,
    payload: stored[0].payload,
  });
  await execute(
    sequelize,
    `INSERT INTO webhook_deliveries (endpoint_id, event_id)
     SELECT e.id, $2 FROM webhook_endpoints e
      WHERE e.account_id = $1 AND e.deleted_at IS NULL AND e.disabled_at IS NULL
        AND (e.events IS NULL OR $3 = ANY (e.events))
     ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
    { bind: [session.account_id, input.eventId, input.event], transaction },
  );
  const deliveries = await queryRows<{ id: string }>(
    sequelize,
    `SELECT id FROM webhook_deliveries WHERE event_id = $1 AND status = 'pending' ORDER BY created_at, id`,
    { bind: [input.eventId], transaction },
  );
  return deliveries.map((d) => d.id);
}

export function eventActivities(
  { sequelize, config, logger }: ActivityDependencies,
  attemptDelivery: AttemptDelivery,
) {
  return {
    /**
     * Records the event (contract §5 body) and one pending delivery per subscribed, enabled endpoint, then
     * makes each delivery's first attempt; returns those a delivery workflow must carry on. The event id
     * comes from the workflow, so a retry finds the rows already there and attempts only what is pending.
     */
    async publishEvent(input: PublishEventInput): Promise<{ deliveries: WebhookDeliveryInput[] }> {
      const pending = await inTransaction(sequelize, (transaction) =>
        recordEvent(sequelize, input, transaction),
      );
      const deliveries = await attemptFirst(pending, {
        attemptDelivery,
        logger,
        retryDelaysMs: config.webhookRetryDelaysMs,
        timeoutMs: config.webhookTimeoutMs,
        waitMs: FIRST_ATTEMPT_WAIT_MS,
      });
      return { deliveries };
    },
  };
}
