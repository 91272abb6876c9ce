import crypto from 'node:crypto';
import type { Next } from 'koa';
import type { Sequelize, Transaction } from 'sequelize';
import type { JsonSealer } from '../../crypto/sealedJson';
import { malformed, conflict, DomainError } from '../../domain/errors';
import { answerTo } from './errors';
import { principalOf, type AppContext } from '../context';
import { execute, queryRows } from '../../db/query';

const KEY = /^[\x21-\x7e]{1,255}$/;
const TTL_HOURS = 24;
const WAIT_FOR_FIRST_MS = 60_000;
/** How long a claim outlives its request's last sign of life; renewed at a third of that. */
const LEASE_SECONDS = 10;

interface StoredKey {
  fingerprint: string;
  state: 'in_progress' | 'completed';
  response_status: number | null;
  response_sealed: Buffer | null;
}

/**
 * Idempotency-Key on POSTs (contract §2), per principal: the API key (with the tokens minted from it)
 * or the one team member that sent it, so no other caller of the account can replay it. The first
 * request with a key claims it; a concurrent duplicate waits for it to finish and replays its answer.
 * Answers below 500 are kept 24 hours, sealed (they can hold signing URLs, login-link keys and webhook
 * secrets); a failure the caller should retry frees the key. A claim is a lease the request renews
 * while it runs, so the key of a request whose process died is free again within seconds. Routes whose
 * work is one transaction store the answer in it (`idempotentAnswerWithin`), so the work and its answer
 * commit together; for the others a retry after a lost answer runs again, and they answer from state.
 */
export function idempotency(sequelize: Sequelize, sealer: JsonSealer) {
  const claim = async (scope: Scope, fingerprint: string) => {
    const rows = await queryRows<{ key: string }>(
      sequelize,
      `INSERT INTO idempotency_keys (account_id, principal, key, fingerprint, state, expires_at, locked_until)
       VALUES ($1, $2, $3, $4, 'in_progress', now() + interval '${TTL_HOURS} hours', now() + interval '${LEASE_SECONDS} seconds')
       ON CONFLICT (account_id, principal, key) DO UPDATE
         SET fingerprint = excluded.fingerprint, state = 'in_progress', response_status = NULL, response_sealed = NULL,
             created_at = now(), expires_at = excluded.expires_at, locked_until = excluded.locked_until
       WHERE idempotency_keys.expires_at < now()
          OR (idempotency_keys.state = 'in_progress' AND idempotency_keys.locked_until < now()
              AND idempotency_keys.fingerprint = excluded.fingerprint)
       RETURNING key`,
      { bind: [scope.accountId, scope.principal, scope.key, fingerprint] },
    );
    return rows.length > 0;
  };
  const load = async (scope: Scope) => {
    const rows = await queryRows<StoredKey>(
      sequelize,
      `SELECT fingerprint, state, response_status, response_sealed FROM idempotency_keys
        WHERE account_id = $1 AND principal = $2 AND key = $3`,
      { bind: [scope.accountId, scope.principal, scope.key] },
    );
    return rows[0];
  };
  const whereScope = 'account_id = $1 AND principal = $2 AND key = $3';
  const bindOf = (scope: Scope) => [scope.accountId, scope.principal, scope.key];
  const renew = (scope: Scope) =>
    execute(
      sequelize,
      `UPDATE idempotency_keys SET locked_until = now() + interval '${LEASE_SECONDS} seconds'
        WHERE ${whereScope} AND state = 'in_progress'`,
      { bind: bindOf(scope) },
    );
  const release = (scope: Scope) =>
    execute(sequelize, `DELETE FROM idempotency_keys WHERE ${whereScope} AND state = 'in_progress'`, {
      bind: bindOf(scope),
    });
  const complete = (scope: Scope, status: number, body: unknown, transaction?: Transaction) =>
    execute(
      sequelize,
      `UPDATE idempotency_keys SET state = 'completed', response_status = $4, response_sealed = $5 WHERE ${whereScope}`,
      { bind: [...bindOf(scope), status, sealer.seal(body, contextOf(scope))], transaction },
    );

  return async (ctx: AppContext, next: Next) => {
    const key = ctx.get('idempotency-key');
    // A network person belongs to no account; their actions are retry-safe on their own (already done → 200).
    if (!key || !ctx.state.principal) return next();
    if (!KEY.test(key)) throw malformed('Idempotency-Key must be 1 to 255 printable ASCII characters');
    const { accountId, kind, keyId } = principalOf(ctx);
    const scope: Scope = { accountId, principal: `${kind}:${keyId}`, key };
    const fingerprint = crypto
      .createHash('sha256')
      .update(`${ctx.method} ${ctx.path}\n${ctx.state.bodySha256 ?? ''}`)
      .digest('hex');

    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    while (!(await claim(scope, fingerprint))) {
      const stored = await load(scope);
      if (!stored) continue;
      if (stored.fingerprint !== fingerprint) throw conflict('duplicate nonce');
      if (stored.state === 'completed') {
        ctx.status = stored.response_status!;
        ctx.body = sealer.open(stored.response_sealed!, contextOf(scope));
        ctx.set('Idempotent-Replayed', 'true');
        return;
      }
      if (Date.now() > deadline) throw conflict('A request with this Idempotency-Key is still in progress');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const lease = setInterval(() => renew(scope).catch(() => undefined), (LEASE_SECONDS * 1000) / 3);
    let answeredWithinWork = false;
    ctx.state.idempotency = {
      answerWithin: (status) => async (body, transaction) => {
        await complete(scope, status, body, transaction);
        answeredWithinWork = true;
      },
    };
    try {
      await next();
    } catch (err) {
      clearInterval(lease);
      if (err instanceof DomainError && err.kind !== 'unavailable') {
        const answer = answerTo(err);
        await complete(scope, answer.status, answer.body);
      } else {
        // If this fails too (the database is down), the lease lapses and frees the key all the same.
        await release(scope).catch(() => undefined);
      }
      throw err;
    }
    clearInterval(lease);
    if (answeredWithinWork) return;
    if (ctx.status < 500) await complete(scope, ctx.status, ctx.body);
    else await release(scope).catch(() => undefined);
  };
}

interface Scope {
  accountId: string;
  principal: string;
  key: string;
}

const contextOf = (scope: Scope) => `idempotency:${scope.accountId}:${scope.principal}:${scope.key}`;
