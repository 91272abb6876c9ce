import crypto from 'node:crypto';
import type { Next } from 'koa';
import type { Sequelize, Transaction } from 'sequelize';
import type { JsonSealer } from '../../crypto/sealedJson';
import { malformed, conflict, DomainError } from '../../domain/errors';
import { answerTo } from './errors';
import { principalOf, type AppContext } from '../context';
import { IdempotencyKeys, LEASE_SECONDS, type KeyScope } from '../../db/idempotencyKeys';

const KEY = /^[\x21-\x7e]{1,255}$/;
const WAIT_FOR_FIRST_MS = 60_000;

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
  const keys = new IdempotencyKeys(sequelize);
  const complete = (scope: KeyScope, status: number, body: unknown, transaction?: Transaction) =>
    keys.complete(scope, status, sealer.seal(body, contextOf(scope)), transaction);

  return async (ctx: AppContext, next: Next) => {
    const key = ctx.get('idempotency-key');
    // A network person belongs to no account; their actions are retry-safe on their own (already done → 200).
    if (!key || !ctx.state.principal) return next();
    if (!KEY.test(key)) throw malformed('Idempotency-Key must be 1 to 255 printable ASCII characters');
    const { accountId, kind, keyId } = principalOf(ctx);
    const scope: KeyScope = { accountId, principal: `${kind}:${keyId}`, key };
    const fingerprint = crypto
      .createHash('sha256')
      .update(`${ctx.method} ${ctx.path}\n${ctx.state.bodySha256 ?? ''}`)
      .digest('hex');

    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    while (!(await keys.claim(scope, fingerprint))) {
      const stored = await keys.load(scope);
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

    const lease = setInterval(() => keys.renew(scope).catch(() => undefined), (LEASE_SECONDS * 1000) / 3);
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
        await keys.release(scope).catch(() => undefined);
      }
      throw err;
    }
    clearInterval(lease);
    if (answeredWithinWork) return;
    if (ctx.status < 500) await complete(scope, ctx.status, ctx.body);
    else await keys.release(scope).catch(() => undefined);
  };
}

const contextOf = (scope: KeyScope) => `idempotency:${scope.accountId}:${scope.principal}:${scope.key}`;
