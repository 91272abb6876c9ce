import { inTransaction } from '../db/transaction';
import { isUuid } from '../ids';
import crypto from 'node:crypto';
import type { Sequelize } from 'sequelize';
import type { BeforeCommit } from '../db/beforeCommit';
import { TEMPORAL_DEADLINE_MS, type TemporalHandle } from '../temporal/client';
import type { Config } from '../config';
import { invalid, notFound, conflict } from '../domain/errors';
import { assertAllowedTarget, ForbiddenTargetError } from './targetPolicy';
import { WORKFLOW_TYPES, type WebhookDeliveryWorkflow } from '../../core/temporal/workflows';
import {
  deliveryWorkflowIdOf,
  redeliverSignal,
  type RedeliverArgs,
} from '../../core/temporal/webhookDelivery';
import { execute, queryRows } from '../db/query';
import { pageOf } from '../db/pagination';

interface EndpointRow {
  id: string;
  url: string;
  events: string[] | null;
  secret: string;
  disabled_at: Date | null;
  disabled_reason: string | null;
  created_at: Date;
}

function presentEndpoint(row: EndpointRow) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    disabled_at: row.disabled_at ? row.disabled_at.toISOString() : null,
    disabled_reason: row.disabled_reason,
    created_at: row.created_at.toISOString(),
  };
}

/** Standard Webhooks secrets: `whsec_` and base64 of random bytes; shown once, kept to sign deliveries. */
const newSecret = () => `whsec_${crypto.randomBytes(32).toString('base64')}`;

interface DeliveryRow {
  id: string;
  event_id: string;
  event: string;
  session_id: string;
  status: string;
  failure_reason: string | null;
  attempt_count: number;
  last_status_code: number | null;
  delivered_at: Date | null;
  created_at: Date;
  attempts: unknown[];
}

/** Far more than any integration needs (one per environment or consumer), and a bound on fan-out per event. */
export const MAX_WEBHOOK_ENDPOINTS = 20;

/** Self-service webhook endpoints of an account (contract §5, and the changes the OpenAPI decisions add). */
export class WebhookEndpointService {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly temporal: TemporalHandle,
    private readonly config: Config,
  ) {}

  private async assertAllowed(url: string) {
    try {
      await assertAllowedTarget(url, this.config.allowPrivateWebhookTargets);
    } catch (err) {
      if (err instanceof ForbiddenTargetError) throw invalid(err.message);
      throw err;
    }
  }

  async create(
    accountId: string,
    input: { url: string; events?: string[] },
    beforeCommit?: BeforeCommit<unknown>,
  ) {
    await this.assertAllowed(input.url);
    const secret = newSecret();
    return inTransaction(this.sequelize, async (transaction) => {
      // The account's row orders concurrent creates, so the cap holds under a burst too.
      await execute(this.sequelize, 'SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', {
        bind: [accountId],
        transaction,
      });
      const [live] = await queryRows<{ n: number }>(
        this.sequelize,
        'SELECT count(*)::int AS n FROM webhook_endpoints WHERE account_id = $1 AND deleted_at IS NULL',
        { bind: [accountId], transaction },
      );
      if (live.n >= MAX_WEBHOOK_ENDPOINTS)
        throw conflict(`An account has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one first`);
      const rows = await queryRows<EndpointRow>(
        this.sequelize,
        'INSERT INTO webhook_endpoints (account_id, url, events, secret) VALUES ($1, $2, $3, $4) RETURNING *',
        { bind: [accountId, input.url, input.events ?? null, secret], transaction },
      );
      const answer = { ...presentEndpoint(rows[0]), secret };
      await beforeCommit?.(answer, transaction);
      return answer;
    });
  }

  async list(accountId: string) {
    const rows = await queryRows<EndpointRow>(
      this.sequelize,
      'SELECT * FROM webhook_endpoints WHERE account_id = $1 AND deleted_at IS NULL ORDER BY created_at, id',
      { bind: [accountId] },
    );
    return { data: rows.map(presentEndpoint) };
  }

  private async find(accountId: string, id: string): Promise<EndpointRow> {
    if (!isUuid(id)) throw notFound('Webhook endpoint not found');
    const rows = await queryRows<EndpointRow>(
      this.sequelize,
      'SELECT * FROM webhook_endpoints WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL',
      { bind: [id, accountId] },
    );
    if (!rows.length) throw notFound('Webhook endpoint not found');
    return rows[0];
  }

  /**
   * Changes what is given: a new URL (the next attempt of a delivery being retried goes there too), the
   * events (null: every one; for events from now on), or whether it is enabled (re-enabled after a 410,
   * its deliveries marked disabled can be redelivered; disabled, its events make no deliveries).
   */
  async update(
    accountId: string,
    id: string,
    patch: { url?: string; events?: string[] | null; enabled?: boolean },
  ) {
    if (!isUuid(id)) throw notFound('Webhook endpoint not found');
    if (patch.url !== undefined) await this.assertAllowed(patch.url);
    const [row] = await queryRows<EndpointRow>(
      this.sequelize,
      `UPDATE webhook_endpoints SET
              url = coalesce($3, url),
              events = CASE WHEN $4 THEN $5::text[] ELSE events END,
              disabled_at = CASE WHEN $6::boolean IS NULL THEN disabled_at
                                 WHEN $6 THEN NULL ELSE coalesce(disabled_at, now()) END,
              disabled_reason = CASE WHEN $6::boolean IS NULL THEN disabled_reason
                                     WHEN $6 THEN NULL ELSE coalesce(disabled_reason, 'disabled through the API') END
        WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL RETURNING *`,
      {
        bind: [
          id,
          accountId,
          patch.url ?? null,
          patch.events !== undefined,
          patch.events ?? null,
          patch.enabled ?? null,
        ],
      },
    );
    if (!row) throw notFound('Webhook endpoint not found');
    return presentEndpoint(row);
  }

  /**
   * A new secret, shown once; the one it replaces keeps signing beside it (a second signature in
   * `webhook-signature`) for WEBHOOK_SECRET_ROTATION_GRACE. A secret replaced before was already
   * replaced once: only the latest previous one signs on.
   */
  async rotateSecret(accountId: string, id: string, beforeCommit?: BeforeCommit<unknown>) {
    if (!isUuid(id)) throw notFound('Webhook endpoint not found');
    const secret = newSecret();
    return inTransaction(this.sequelize, async (transaction) => {
      const [row] = await queryRows<EndpointRow & { previous_secret_expires_at: Date }>(
        this.sequelize,
        `UPDATE webhook_endpoints SET previous_secret = secret, secret = $3,
                previous_secret_expires_at = now() + $4 * interval '1 millisecond'
          WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL RETURNING *`,
        { bind: [id, accountId, secret, this.config.webhookSecretGraceMs], transaction },
      );
      if (!row) throw notFound('Webhook endpoint not found');
      const answer = {
        ...presentEndpoint(row),
        secret,
        previous_secret_expires_at: row.previous_secret_expires_at.toISOString(),
      };
      await beforeCommit?.(answer, transaction);
      return answer;
    });
  }

  async remove(accountId: string, id: string) {
    await this.find(accountId, id);
    await execute(this.sequelize, 'UPDATE webhook_endpoints SET deleted_at = now() WHERE id = $1', {
      bind: [id],
    });
  }

  async deliveries(accountId: string, id: string, page: number, limit: number) {
    await this.find(accountId, id);
    const { rows, pagination } = await pageOf<DeliveryRow>(
      this.sequelize,
      {
        columns: `d.id, d.event_id, ev.event, ev.session_id, d.status, d.failure_reason, d.attempt_count, d.last_status_code,
                  d.delivered_at, d.created_at,
                  coalesce((SELECT json_agg(json_build_object('attempted_at', a.attempted_at, 'status_code', a.status_code,
                                     'latency_ms', a.latency_ms, 'error', a.error, 'success', a.success) ORDER BY a.attempted_at)
                              FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]') AS attempts`,
        fromWhere: 'FROM webhook_deliveries d JOIN events ev ON ev.id = d.event_id WHERE d.endpoint_id = $1',
        orderBy: 'd.created_at DESC, d.id',
        bind: [id],
      },
      { page, limit },
    );
    return {
      data: rows.map(({ id: deliveryId, session_id, ...row }) => ({
        delivery_id: deliveryId,
        bn_session_id: session_id,
        ...row,
      })),
      pagination,
    };
  }

  /** Sends a delivery again with a fresh retry schedule; the receiver sees the same webhook-id. */
  async redeliver(accountId: string, deliveryId: string) {
    if (!isUuid(deliveryId)) throw notFound('Delivery not found');
    const rows = await queryRows<{ id: string; disabled_at: Date | null }>(
      this.sequelize,
      `SELECT d.id, e.disabled_at FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.id = $1 AND e.account_id = $2 AND e.deleted_at IS NULL`,
      { bind: [deliveryId, accountId] },
    );
    if (!rows.length) throw notFound('Delivery not found');
    if (rows[0].disabled_at) throw conflict('The endpoint is disabled');
    // Reopened before Temporal is asked: an attempt must not read it as it was (a delivered one would
    // not be sent).
    const [previous] = await queryRows<{ status: string; failure_reason: string | null }>(
      this.sequelize,
      `UPDATE webhook_deliveries d SET status = 'pending', failure_reason = NULL, updated_at = now()
         FROM webhook_deliveries before WHERE d.id = $1 AND before.id = d.id
       RETURNING before.status, before.failure_reason`,
      { bind: [deliveryId] },
    );
    // One workflow id per delivery, so whether a workflow carries it is one question to Temporal (the
    // terminated-workflow sweep asks it). A workflow still retrying takes the redelivery itself: it
    // attempts now, and starts its schedule again.
    const retryDelaysMs = this.config.webhookRetryDelaysMs;
    try {
      await this.temporal.connection.withDeadline(Date.now() + TEMPORAL_DEADLINE_MS, () =>
        this.temporal.client.workflow.signalWithStart<WebhookDeliveryWorkflow, RedeliverArgs>(
          WORKFLOW_TYPES.webhookDelivery,
          {
            workflowId: deliveryWorkflowIdOf(deliveryId),
            taskQueue: this.config.taskQueue,
            args: [{ deliveryId, retryDelaysMs }],
            signal: redeliverSignal,
            signalArgs: [{ retryDelaysMs }],
          },
        ),
      );
    } catch (err) {
      // Temporal did not take it (the caller gets a 503 and may retry): the delivery reads as it was, not
      // pending with no workflow to carry it.
      await execute(
        this.sequelize,
        `UPDATE webhook_deliveries SET status = $2, failure_reason = $3, updated_at = now()
          WHERE id = $1 AND status = 'pending'`,
        { bind: [deliveryId, previous.status, previous.failure_reason] },
      );
      throw err;
    }
    return { deliveryId, status: 'pending' as const };
  }
}
