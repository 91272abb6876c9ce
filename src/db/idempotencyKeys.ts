import type { Sequelize, Transaction } from 'sequelize';
import { execute, queryRows } from './query';

const TTL_HOURS = 24;
/** How long a claim outlives its request's last sign of life; renewed at a third of that. */
export const LEASE_SECONDS = 10;

/** One caller's use of one key: the account, the principal that sent it, the key. */
export interface KeyScope {
  accountId: string;
  principal: string;
  key: string;
}

export interface StoredKey {
  fingerprint: string;
  state: 'in_progress' | 'completed';
  response_status: number | null;
  response_sealed: Buffer | null;
}

const WHERE_SCOPE = 'account_id = $1 AND principal = $2 AND key = $3';
const bindOf = (scope: KeyScope) => [scope.accountId, scope.principal, scope.key];

/** The idempotency_keys table: a key claimed by one request, leased while it runs, then its answer. */
export class IdempotencyKeys {
  constructor(private readonly sequelize: Sequelize) {}

  /** Claims the key for a request (a new key, an expired one, or a lapsed claim of the same request). */
  async claim(scope: KeyScope, fingerprint: string): Promise<boolean> {
    const rows = await queryRows<{ key: string }>(
      this.sequelize,
      `INSERT INTO idempotency_keys (account_id, principal, key, fingerprint, state, expires_at, locked_until)
       VALUES ($1, $2, $3, $4, 'in_progress', now() + interval '${TTL_HOURS} hours', now() + interval '${LEASE_SECONDS} seconds')
       ON CONFLICT (account_id, principal, key) DO UPDATE
         SET fingerprint = excluded.fingerprint, state = 'in_progress', response_status = NULL, response_sealed = NULL,
             created_at = now(), expires_at = excluded.expires_at, locked_until = excluded.locked_until
       WHERE idempotency_keys.expires_at < now()
          OR (idempotency_keys.state = 'in_progress' AND idempotency_keys.locked_until < now()
              AND idempotency_keys.fingerprint = excluded.fingerprint)
       RETURNING key`,
      { bind: [...bindOf(scope), fingerprint] },
    );
    return rows.length > 0;
  }

  async load(scope: KeyScope): Promise<StoredKey | undefined> {
    const rows = await queryRows<StoredKey>(
      this.sequelize,
      `SELECT fingerprint, state, response_status, response_sealed FROM idempotency_keys WHERE ${WHERE_SCOPE}`,
      { bind: bindOf(scope) },
    );
    return rows[0];
  }

  async renew(scope: KeyScope): Promise<void> {
    await execute(
      this.sequelize,
      `UPDATE idempotency_keys SET locked_until = now() + interval '${LEASE_SECONDS} seconds'
        WHERE ${WHERE_SCOPE} AND state = 'in_progress'`,
      { bind: bindOf(scope) },
    );
  }

  async release(scope: KeyScope): Promise<void> {
    await execute(
      this.sequelize,
      `DELETE FROM idempotency_keys WHERE ${WHERE_SCOPE} AND state = 'in_progress'`,
      {
        bind: bindOf(scope),
      },
    );
  }

  async complete(scope: KeyScope, status: number, sealed: Buffer, transaction?: Transaction): Promise<void> {
    await execute(
      this.sequelize,
      `UPDATE idempotency_keys SET state = 'completed', response_status = $4, response_sealed = $5 WHERE ${WHERE_SCOPE}`,
      { bind: [...bindOf(scope), status, sealed], transaction },
    );
  }
}
