import crypto from 'node:crypto';
import type { Next } from 'koa';
import type { Sequelize } from 'sequelize';
import { HttpError } from '../errors';
import { principalOf, type AppContext } from '../context';

const KEY = /^[\x21-\x7e]{1,255}$/;
const TTL_HOURS = 24;
const WAIT_FOR_FIRST_MS = 60_000;

interface StoredKey {
  fingerprint: string;
  state: 'in_progress' | 'completed';
  response_status: number | null;
  response_body: unknown;
  expired: boolean;
}

/**
 * Idempotency-Key on POSTs (contract §2), per account. The first request with a key claims it by
 * inserting a row; a concurrent duplicate waits for that request to finish and then replays its
 * answer. Answers below 500 are kept for 24 hours; a failure the caller should retry frees the key.
 */
export function idempotency(sequelize: Sequelize) {
  const claim = async (accountId: string, key: string, fingerprint: string) => {
    const [rows] = await sequelize.query(
      `INSERT INTO idempotency_keys (account_id, key, fingerprint, state, expires_at)
       VALUES ($1, $2, $3, 'in_progress', now() + interval '${TTL_HOURS} hours')
       ON CONFLICT (account_id, key) DO NOTHING RETURNING key`,
      { bind: [accountId, key, fingerprint] },
    );
    return rows.length > 0;
  };
  const load = async (accountId: string, key: string) => {
    const [rows] = (await sequelize.query(
      `SELECT fingerprint, state, response_status, response_body, expires_at < now() AS expired
         FROM idempotency_keys WHERE account_id = $1 AND key = $2`,
      { bind: [accountId, key] },
    )) as [StoredKey[], unknown];
    return rows[0];
  };
  const release = (accountId: string, key: string) =>
    sequelize.query('DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2', {
      bind: [accountId, key],
    });
  const complete = (accountId: string, key: string, status: number, body: unknown) =>
    sequelize.query(
      `UPDATE idempotency_keys SET state = 'completed', response_status = $3, response_body = $4 WHERE account_id = $1 AND key = $2`,
      { bind: [accountId, key, status, JSON.stringify(body ?? null)] },
    );

  return async (ctx: AppContext, next: Next) => {
    const key = ctx.get('idempotency-key');
    if (!key) return next();
    if (!KEY.test(key))
      throw new HttpError(400, 'Idempotency-Key must be 1 to 255 printable ASCII characters');
    const { accountId } = principalOf(ctx);
    const fingerprint = crypto
      .createHash('sha256')
      .update(`${ctx.method} ${ctx.path}\n${ctx.state.bodySha256 ?? ''}`)
      .digest('hex');

    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    while (!(await claim(accountId, key, fingerprint))) {
      const stored = await load(accountId, key);
      if (!stored) continue;
      if (stored.expired) {
        await sequelize.query(
          'DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND expires_at < now()',
          {
            bind: [accountId, key],
          },
        );
        continue;
      }
      if (stored.fingerprint !== fingerprint) throw new HttpError(409, 'duplicate nonce');
      if (stored.state === 'completed') {
        ctx.status = stored.response_status!;
        ctx.body = stored.response_body;
        ctx.set('Idempotent-Replayed', 'true');
        return;
      }
      if (Date.now() > deadline)
        throw new HttpError(409, 'A request with this Idempotency-Key is still in progress');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    try {
      await next();
    } catch (err) {
      if (err instanceof HttpError && err.status < 500) {
        await complete(accountId, key, err.status, {
          response: 'Fail',
          response_message: err.message,
          ...err.fields,
        });
      } else {
        await release(accountId, key);
      }
      throw err;
    }
    if (ctx.status < 500) await complete(accountId, key, ctx.status, ctx.body);
    else await release(accountId, key);
  };
}
