import type { Sequelize, Transaction } from 'sequelize';
import { execute, queryRows } from '../db/query';
import { preparedStatement } from '../db/preparedStatements';

export type KeyKind = 'api' | 'vendor';

/** An account's API key as stored: the secret only as its SHA-256, found by its public prefix. */
export interface ApiKey {
  id: string;
  accountId: string;
  kind: KeyKind;
  secretHash: Buffer;
  revokedAt: Date | null;
  /**
   * The account's base URL for signing links, set when the account is made and never changed: read with the
   * key, a create needs no read of its own before it writes the invitations that carry the links.
   */
  whiteLabelBaseUrl: string | null;
  /** A test-mode account: its sessions run without media and are no notarial act. */
  testMode: boolean;
}

const KEYS_WITH_ACCOUNT = `
  SELECT k.id, k.account_id AS "accountId", k.kind, k.secret_hash AS "secretHash", k.revoked_at AS "revokedAt",
         a.white_label_base_url AS "whiteLabelBaseUrl", a.test_mode AS "testMode"
    FROM api_keys k JOIN accounts a ON a.id = k.account_id`;

/** Every request with an API key asks it. */
const KEY_BY_PREFIX = preparedStatement('api-key-by-prefix', `${KEYS_WITH_ACCOUNT} WHERE k.prefix = $1`);

export async function keyByPrefix(sequelize: Sequelize, prefix: string): Promise<ApiKey | null> {
  const [key] = await queryRows<ApiKey>(sequelize, KEY_BY_PREFIX, {
    bind: [prefix],
  });
  return key ?? null;
}

export async function keyById(
  sequelize: Sequelize,
  id: string,
  transaction?: Transaction,
): Promise<ApiKey | null> {
  const [key] = await queryRows<ApiKey>(sequelize, `${KEYS_WITH_ACCOUNT} WHERE k.id = $1`, {
    bind: [id],
    transaction,
  });
  return key ?? null;
}

export async function insertKey(
  sequelize: Sequelize,
  key: { accountId: string; kind: KeyKind; prefix: string; secretHash: Buffer },
  transaction: Transaction,
): Promise<void> {
  await execute(
    sequelize,
    'INSERT INTO api_keys (account_id, kind, prefix, secret_hash) VALUES ($1, $2, $3, $4)',
    {
      bind: [key.accountId, key.kind, key.prefix, key.secretHash],
      transaction,
    },
  );
}

/** Revokes the account's live keys of one kind and every refresh token issued from them. */
export async function revokeKeys(
  sequelize: Sequelize,
  accountId: string,
  kind: KeyKind,
  transaction: Transaction,
): Promise<void> {
  await execute(
    sequelize,
    `WITH revoked AS (
       UPDATE api_keys SET revoked_at = now() WHERE account_id = $1 AND kind = $2 AND revoked_at IS NULL RETURNING id
     )
     UPDATE refresh_tokens SET revoked_at = now() WHERE api_key_id IN (SELECT id FROM revoked) AND revoked_at IS NULL`,
    { bind: [accountId, kind], transaction },
  );
}
