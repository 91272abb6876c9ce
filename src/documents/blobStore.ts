import type { Sequelize, Transaction } from 'sequelize';
import { queryRows } from '../db/query';

/**
 * Document bytes live in PostgreSQL, outside Temporal payloads, once per account and content hash.
 * Bound as a query parameter, the Buffer goes to the server as binary, without a hex copy.
 */
export async function storeBlob(
  sequelize: Sequelize,
  accountId: string,
  bytes: Buffer,
  sha256: string,
  transaction: Transaction,
): Promise<string> {
  // One round trip: the new row's id, or the one already stored. The second read is only for a row
  // another transaction committed after this statement's snapshot (the insert waited for it).
  const [stored] = await queryRows<{ id: string }>(
    sequelize,
    `WITH inserted AS (
       INSERT INTO blobs (account_id, sha256, size_bytes, content) VALUES ($1, $2, $3, $4)
       ON CONFLICT (account_id, sha256) DO NOTHING RETURNING id)
     SELECT id FROM inserted UNION ALL SELECT id FROM blobs WHERE account_id = $1 AND sha256 = $2 LIMIT 1`,
    { bind: [accountId, sha256, bytes.length, bytes], transaction },
  );
  if (stored) return stored.id;
  const [existing] = await queryRows<{ id: string }>(
    sequelize,
    'SELECT id FROM blobs WHERE account_id = $1 AND sha256 = $2',
    { bind: [accountId, sha256], transaction },
  );
  return existing.id;
}

export async function readBlob(sequelize: Sequelize, blobId: string): Promise<Buffer> {
  const rows = await queryRows<{ content: Buffer }>(sequelize, 'SELECT content FROM blobs WHERE id = $1', {
    bind: [blobId],
  });
  if (!rows.length) throw new Error(`blob ${blobId} not found`);
  return rows[0].content;
}
