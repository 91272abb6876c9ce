import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ClientBase } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Sequelize, Transaction } from 'sequelize';
import { execute, queryRows } from '../db/query';
import { preparedStatement } from '../db/preparedStatements';

/**
 * Above this size a document's bytes go to PostgreSQL in pieces (COPY): bound as one query parameter,
 * they would be copied whole into the driver's message first, a second copy of a 10 MB document.
 */
export const STREAMED_BLOB_BYTES = 1024 * 1024;
const COPY_PIECE_BYTES = 256 * 1024;

/** Every upload up to STREAMED_BLOB_BYTES asks it. */
const STORE_BLOB = preparedStatement(
  'store-blob',
  `WITH inserted AS (
       INSERT INTO blobs (account_id, sha256, size_bytes, content) VALUES ($1, $2, $3, $4)
       ON CONFLICT (account_id, sha256) DO NOTHING RETURNING id)
     SELECT id FROM inserted UNION ALL SELECT id FROM blobs WHERE account_id = $1 AND sha256 = $2 LIMIT 1`,
);

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
  if (bytes.length > STREAMED_BLOB_BYTES)
    return copyBlob(sequelize, { accountId, bytes, sha256 }, transaction);
  // One round trip: the new row's id, or the one already stored. The second read is only for a row
  // another transaction committed after this statement's snapshot (the insert waited for it).
  const [stored] = await queryRows<{ id: string }>(sequelize, STORE_BLOB, {
    bind: [accountId, sha256, bytes.length, bytes],
    transaction,
  });
  if (stored) return stored.id;
  const existing = await existingBlob(sequelize, accountId, sha256, transaction);
  if (!existing) throw new Error(`blob ${sha256} was neither inserted nor found`);
  return existing;
}

async function existingBlob(
  sequelize: Sequelize,
  accountId: string,
  sha256: string,
  transaction: Transaction,
): Promise<string | undefined> {
  const [row] = await queryRows<{ id: string }>(
    sequelize,
    'SELECT id FROM blobs WHERE account_id = $1 AND sha256 = $2',
    { bind: [accountId, sha256], transaction },
  );
  return row?.id;
}

/**
 * A large blob through COPY, which cannot skip a row that exists (ON CONFLICT): writers of the same
 * content take turns on a transaction lock and look first, so the second finds the first's row once it
 * commits.
 */
async function copyBlob(
  sequelize: Sequelize,
  { accountId, bytes, sha256 }: { accountId: string; bytes: Buffer; sha256: string },
  transaction: Transaction,
): Promise<string> {
  await execute(sequelize, 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', {
    bind: [`blob:${accountId}:${sha256}`],
    transaction,
  });
  const existing = await existingBlob(sequelize, accountId, sha256, transaction);
  if (existing) return existing;
  const id = crypto.randomUUID();
  // Sequelize's transaction holds its pg client; the COPY runs on it, inside the transaction.
  const client = (transaction as unknown as { connection: ClientBase }).connection;
  await pipeline(
    Readable.from(binaryCopyRow(id, accountId, sha256, bytes)),
    client.query(
      copyFrom('COPY blobs (id, account_id, sha256, size_bytes, content) FROM STDIN (FORMAT binary)'),
    ),
  );
  return id;
}

const int16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
};
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
/** A field of a binary COPY tuple: its length, then its bytes. */
const field = (bytes: Buffer) => [int32(bytes.length), bytes];
const uuidBytes = (uuid: string) => Buffer.from(uuid.replace(/-/g, ''), 'hex');

/**
 * One blobs row in PostgreSQL's binary COPY format (the `COPY` reference, "Binary Format"): the header,
 * one tuple of five fields, the trailer. The content follows as views of the document's own bytes.
 */
function* binaryCopyRow(id: string, accountId: string, sha256: string, content: Buffer): Generator<Buffer> {
  yield Buffer.concat([
    Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'),
    int32(0), // flags
    int32(0), // header extension length
    int16(5),
    ...field(uuidBytes(id)),
    ...field(uuidBytes(accountId)),
    ...field(Buffer.from(sha256, 'utf8')),
    ...field(int32(content.length)),
    // The content field's length; its bytes follow in pieces.
    int32(content.length),
  ]);
  for (let at = 0; at < content.length; at += COPY_PIECE_BYTES)
    yield content.subarray(at, at + COPY_PIECE_BYTES);
  yield int16(-1);
}

export async function readBlob(sequelize: Sequelize, blobId: string): Promise<Buffer> {
  const rows = await queryRows<{ content: Buffer }>(sequelize, 'SELECT content FROM blobs WHERE id = $1', {
    bind: [blobId],
  });
  if (!rows.length) throw new Error(`blob ${blobId} not found`);
  return rows[0].content;
}
