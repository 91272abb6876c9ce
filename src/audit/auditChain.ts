import crypto from 'node:crypto';
import stableStringify from 'fast-json-stable-stringify';
import type { Sequelize, Transaction } from 'sequelize';
import { execute, queryRows, rowExists } from '../db/query';

export const GENESIS_HASH = '0'.repeat(64);

interface AuditRecord {
  seq: number;
  event_id: string;
  event: string;
  payload: unknown;
  prev_hash: string;
  hash: string;
  created_at: Date;
}

/** Each record's hash covers its position, its event and the previous record's hash. */
export function recordHash(prevHash: string, seq: number, eventId: string, payload: unknown): string {
  return crypto
    .createHash('sha256')
    .update(`${prevHash}\n${seq}\n${eventId}\n${stableStringify(payload)}`)
    .digest('hex');
}

/**
 * Appends an event to its session's chain, inside the caller's transaction. The session row is locked
 * so appends of one session are serialised; an event already in the chain is not appended again. The
 * lock is NO KEY UPDATE: an API transaction that adds rows referring to the session (documents) while
 * it waits for the workflow holds a key-share lock on it, which must not stop the workflow's steps.
 */
export async function appendAuditRecord(
  sequelize: Sequelize,
  transaction: Transaction,
  record: { sessionId: string; eventId: string; event: string; payload: unknown },
): Promise<void> {
  await execute(sequelize, 'SELECT 1 FROM sessions WHERE id = $1 FOR NO KEY UPDATE', {
    bind: [record.sessionId],
    transaction,
  });
  const existing = await rowExists(sequelize, 'SELECT 1 FROM audit_records WHERE event_id = $1', {
    bind: [record.eventId],
    transaction,
  });
  if (existing) return;
  const last = await queryRows<{ seq: number; hash: string }>(
    sequelize,
    'SELECT seq, hash FROM audit_records WHERE session_id = $1 ORDER BY seq DESC LIMIT 1',
    { bind: [record.sessionId], transaction },
  );
  const seq = (last[0]?.seq ?? 0) + 1;
  const prevHash = last[0]?.hash ?? GENESIS_HASH;
  await execute(
    sequelize,
    `INSERT INTO audit_records (session_id, seq, event_id, event, payload, prev_hash, hash) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    {
      bind: [
        record.sessionId,
        seq,
        record.eventId,
        record.event,
        JSON.stringify(record.payload),
        prevHash,
        recordHash(prevHash, seq, record.eventId, record.payload),
      ],
      transaction,
    },
  );
}

export interface ChainVerdict {
  intact: boolean;
  records: number;
  /** The first record that does not fit the chain, and why. */
  broken_at_seq?: number;
  reason?: string;
}

export async function readAuditTrail(sequelize: Sequelize, sessionId: string): Promise<AuditRecord[]> {
  const rows = await queryRows<AuditRecord>(
    sequelize,
    'SELECT seq, event_id, event, payload, prev_hash, hash, created_at FROM audit_records WHERE session_id = $1 ORDER BY seq',
    { bind: [sessionId] },
  );
  return rows;
}

/** Recomputes the chain: any edited, removed, reordered or inserted record breaks it. */
export function verifyChain(records: AuditRecord[]): ChainVerdict {
  let prevHash = GENESIS_HASH;
  for (const [i, record] of records.entries()) {
    const problem =
      record.seq !== i + 1
        ? `expected record ${i + 1}, found ${record.seq}`
        : record.prev_hash !== prevHash
          ? 'prev_hash does not match the previous record'
          : record.hash !== recordHash(prevHash, record.seq, record.event_id, record.payload)
            ? 'hash does not match the record'
            : undefined;
    if (problem)
      return { intact: false, records: records.length, broken_at_seq: record.seq, reason: problem };
    prevHash = record.hash;
  }
  return { intact: true, records: records.length };
}
