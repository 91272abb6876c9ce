import net from 'node:net';
import type { Sequelize } from 'sequelize';
import { request } from 'undici';
import { Webhook } from 'standardwebhooks';
import type { Config } from '../config';
import { execute, queryRows } from '../db/query';
import { isPublicAddress, webhookAgent } from './targetPolicy';

export type AttemptOutcome = 'delivered' | 'disabled' | 'failed' | 'retry';

interface DeliveryRow {
  id: string;
  status: string;
  url: string;
  secret: string;
  /** The secret it replaced, while that one still signs beside it. */
  previous_secret: string | null;
  disabled_at: Date | null;
  deleted_at: Date | null;
  event_id: string;
  payload: unknown;
}

/**
 * Records a delivery whose retries were stopped (an operator cancelled or terminated its workflow) as given
 * up, as after its last attempt: the integrator then sees it failed and may ask for it again, rather than
 * wait on one that no workflow carries. A delivery an attempt delivered meanwhile stays delivered. True
 * when it was still pending.
 */
export async function giveUpDelivery(sequelize: Sequelize, deliveryId: string): Promise<boolean> {
  const updated = await execute(
    sequelize,
    `UPDATE webhook_deliveries SET status = 'failed', failure_reason = 'stopped_by_operator', updated_at = now()
      WHERE id = $1 AND status = 'pending'`,
    { bind: [deliveryId] },
  );
  return updated > 0;
}

/**
 * One signed POST of an event to an endpoint (Standard Webhooks). 2xx delivers; 410 Gone disables the
 * endpoint; anything else is for the delivery's schedule to retry. Every attempt is recorded; a delivery
 * already delivered is not sent again.
 */
export type AttemptDelivery = (attempt: {
  deliveryId: string;
  isLastAttempt: boolean;
}) => Promise<AttemptOutcome>;

type AttemptRecord = { statusCode: number | null; latencyMs: number; error: string | null; success: boolean };

async function recordAttempt(
  sequelize: Sequelize,
  deliveryId: string,
  attempt: AttemptRecord,
): Promise<void> {
  await execute(
    sequelize,
    `INSERT INTO webhook_attempts (delivery_id, status_code, latency_ms, error, success) VALUES ($1, $2, $3, $4, $5)`,
    { bind: [deliveryId, attempt.statusCode, attempt.latencyMs, attempt.error, attempt.success] },
  );
}

// An attempt still in flight when its delivery was given up (an operator stopped its retries) does not
// reopen it, nor say its schedule ran out: only a redelivery reopens it, and a success is recorded as one.
async function finishAttempt(
  sequelize: Sequelize,
  deliveryId: string,
  status: string,
  statusCode: number | null,
) {
  await execute(
    sequelize,
    `UPDATE webhook_deliveries
        SET status = CASE WHEN status = 'failed' AND $2 = 'pending' THEN status ELSE $2 END,
            failure_reason = CASE WHEN status = 'failed' AND $2 IN ('pending', 'failed') THEN failure_reason
                                  WHEN $2 = 'failed' THEN 'retries_exhausted' END,
            last_status_code = $3, attempt_count = attempt_count + 1,
            delivered_at = CASE WHEN $2 = 'delivered' THEN now() ELSE delivered_at END, updated_at = now()
      WHERE id = $1`,
    { bind: [deliveryId, status, statusCode] },
  );
}

async function disableEndpointOf(sequelize: Sequelize, deliveryId: string): Promise<void> {
  await execute(
    sequelize,
    `UPDATE webhook_endpoints SET disabled_at = coalesce(disabled_at, now()), disabled_reason = 'receiver answered 410 Gone'
        WHERE id = (SELECT endpoint_id FROM webhook_deliveries WHERE id = $1)`,
    { bind: [deliveryId] },
  );
}

/** The signed POST itself: the receiver's status code, or the error that left it without one. */
async function post(
  delivery: DeliveryRow,
  agent: ReturnType<typeof webhookAgent>,
  config: Config,
): Promise<AttemptRecord> {
  const body = JSON.stringify(delivery.payload);
  const timestamp = new Date();
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'notarization-webhooks/1.0',
    'webhook-id': delivery.event_id,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    // Standard Webhooks' list of signatures: a receiver verifies with either secret while both sign.
    'webhook-signature': [delivery.secret, delivery.previous_secret]
      .filter((secret): secret is string => Boolean(secret))
      .map((secret) => new Webhook(secret).sign(delivery.event_id, timestamp, body))
      .join(' '),
  };
  const started = process.hrtime.bigint();
  const elapsed = () => Number((process.hrtime.bigint() - started) / 1_000_000n);
  try {
    const host = new URL(delivery.url).hostname.replace(/^\[|\]$/g, '');
    if (!config.allowPrivateWebhookTargets && net.isIP(host) && !isPublicAddress(host)) {
      throw new Error('target address is private or loopback');
    }
    const response = await request(delivery.url, {
      method: 'POST',
      headers,
      body,
      dispatcher: agent,
      headersTimeout: config.webhookTimeoutMs,
      bodyTimeout: config.webhookTimeoutMs,
      signal: AbortSignal.timeout(config.webhookTimeoutMs),
    });
    await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    const success = response.statusCode >= 200 && response.statusCode < 300;
    return { statusCode: response.statusCode, latencyMs: elapsed(), error: null, success };
  } catch (err) {
    return {
      statusCode: null,
      latencyMs: elapsed(),
      error: (err as Error).message.slice(0, 500),
      success: false,
    };
  }
}

export function deliveryAttempts({
  sequelize,
  config,
}: {
  sequelize: Sequelize;
  config: Config;
}): AttemptDelivery {
  const agent = webhookAgent(config.allowPrivateWebhookTargets);
  return async ({ deliveryId, isLastAttempt }) => {
    const rows = await queryRows<DeliveryRow>(
      sequelize,
      `SELECT d.id, d.status, e.url, e.secret, e.disabled_at, e.deleted_at, d.event_id, ev.payload,
              CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret END AS previous_secret
           FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id JOIN events ev ON ev.id = d.event_id
          WHERE d.id = $1`,
      { bind: [deliveryId] },
    );
    const delivery = rows[0];
    if (!delivery) return 'failed';
    if (delivery.status === 'delivered') return 'delivered';
    if (delivery.disabled_at || delivery.deleted_at) {
      await finishAttempt(sequelize, deliveryId, 'disabled', null);
      return 'disabled';
    }
    const attempt = await post(delivery, agent, config);
    await recordAttempt(sequelize, deliveryId, attempt);
    if (attempt.success) {
      await finishAttempt(sequelize, deliveryId, 'delivered', attempt.statusCode);
      return 'delivered';
    }
    if (attempt.statusCode === 410) {
      await disableEndpointOf(sequelize, deliveryId);
      await finishAttempt(sequelize, deliveryId, 'disabled', attempt.statusCode);
      return 'disabled';
    }
    await finishAttempt(sequelize, deliveryId, isLastAttempt ? 'failed' : 'pending', attempt.statusCode);
    return 'retry';
  };
}
