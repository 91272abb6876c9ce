import type { Sequelize, Transaction } from 'sequelize';
import { isUuid } from '../ids';
import { notFound } from '../domain/errors';
import { queryRows } from '../db/query';
import { pageOf } from '../db/pagination';
import { MEMBER_NAME, NETWORK_NOTARY_NAME, SESSION_NOTARY_JOINS } from '../db/sessionNotary';
import type { SessionRow } from '../../core/session/rows';

export interface SessionFilters {
  notarization_id?: string;
  status?: string;
  page: number;
  limit: number;
}

/** One session of the account; another account's, unknown and malformed ids are all "not found". */
export function findSessionRow(
  sequelize: Sequelize,
  accountId: string,
  sessionId: string,
): Promise<SessionRow> {
  return sessionRowWhere(sequelize, sessionId, 's.account_id = $2', accountId);
}

/**
 * The session `sessionId` with its notary's name and e-mail, if `condition` (on `s`, with `$2` bound to
 * `value`) holds for the caller; "not found" otherwise, so another tenant's session looks like none.
 */
export async function sessionRowWhere(
  sequelize: Sequelize,
  sessionId: string,
  condition: string,
  value: string,
): Promise<SessionRow> {
  if (!isUuid(sessionId)) throw notFound('Session not found');
  const [row] = await queryRows<SessionRow>(
    sequelize,
    `SELECT s.*, u.email AS notary_email, ${MEMBER_NAME} AS notary_name,
            n.email AS network_notary_email, ${NETWORK_NOTARY_NAME} AS network_notary_name
       FROM sessions s ${SESSION_NOTARY_JOINS}
      WHERE s.id = $1 AND (${condition})`,
    { bind: [sessionId, value] },
  );
  if (!row) throw notFound('Session not found');
  return row;
}

/** A participant as a session's lookup shows them. */
export interface ParticipantRow {
  role: 'signer' | 'witness';
  index: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  joined_at: Date | null;
}

export function sessionParticipants(sequelize: Sequelize, sessionId: string): Promise<ParticipantRow[]> {
  return queryRows<ParticipantRow>(
    sequelize,
    `SELECT role, index, email, first_name, last_name, joined_at FROM participants
      WHERE session_id = $1 ORDER BY role DESC, index`,
    { bind: [sessionId] },
  );
}

/** The session's documents as the API shows them, in their order. */
export async function sessionDocuments(sequelize: Sequelize, sessionId: string, transaction?: Transaction) {
  const documents = await queryRows<{
    id: string;
    name: string;
    content_type: string;
    size_bytes: number;
    finalization_error: string | null;
  }>(
    sequelize,
    'SELECT id, name, content_type, size_bytes, finalization_error FROM documents WHERE session_id = $1 ORDER BY position',
    { bind: [sessionId], transaction },
  );
  return documents.map((d) => ({
    document_id: d.id,
    name: d.name,
    content_type: d.content_type,
    size_bytes: d.size_bytes,
    ...(d.finalization_error ? { finalization_error: d.finalization_error } : {}),
  }));
}

export async function listSessions(sequelize: Sequelize, accountId: string, filters: SessionFilters) {
  const { rows, pagination } = await pageOf<SessionRow>(
    sequelize,
    {
      columns: 's.*',
      fromWhere: `FROM sessions s WHERE s.account_id = $1 AND ($2::text IS NULL OR s.notarization_id = $2)
                                    AND ($3::text IS NULL OR s.status = $3)`,
      orderBy: 's.created_at DESC, s.id',
      bind: [accountId, filters.notarization_id ?? null, filters.status ?? null],
    },
    filters,
  );
  return { rows, pagination };
}
