import type { Sequelize, Transaction } from 'sequelize';
import { queryRows } from '../db/query';
import { preparedStatement } from '../db/preparedStatements';
import { documentRecords, DOCUMENTS_FROM_JSON } from './documentIntake';
import type { StoredDocument } from './documentIntake';
import type { SessionPlan } from '../../core/session/plan';

/** A new session's row in `sessions`. */
export interface SessionColumns {
  id: string;
  accountId: string;
  notarizationId: string | null;
  status: string;
  signingType: string;
  sessionType: string;
  notarizationTimingType: string;
  sessionTiming: string | null;
  expiresAt: string | null;
  notaryMemberId: string | null;
  options: unknown;
  plan: SessionPlan;
  workflowId: string;
}

/** The columns of `participants` that say who a participant is. */
export interface ParticipantColumns {
  role: 'signer' | 'witness';
  index: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  is_host: boolean;
}

export interface ParticipantRow extends ParticipantColumns {
  id: string;
  details: Record<string, unknown>;
  /** Hex of the SHA-256 of the signing link's token. */
  token_hash: string;
}

/** An invitation held until the workflow sends it: it carries the signing link, whose token is in clear only now. */
export interface InvitationRow {
  participant_id: string;
  to_email: string;
  subject: string;
  body: string;
}

export interface NewSession {
  session: SessionColumns;
  participants: ParticipantRow[];
  /** Participants whose identity proofing the account waived (`authentication_type: skip`). */
  waived: { id: string }[];
  /** Who waived it, as the identity checks record it. */
  waivedBy: string;
  documents: StoredDocument[];
  notaryCanEditAll: boolean;
  invitations: InvitationRow[];
}

const INSERT_SESSION = preparedStatement(
  'insert-session',
  `WITH session AS (
       INSERT INTO sessions (id, account_id, notarization_id, status, signing_type, session_type,
                             notarization_timing_type, session_timing, expires_at, notary_member_id, options, workflow_id,
                             plan, test_mode)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $18, ($18::jsonb ->> 'testMode')::boolean)),
     participant AS (
       INSERT INTO participants (id, session_id, role, index, email, first_name, last_name, is_host, details, token_hash)
       SELECT p.id, $1, p.role, p."index", p.email, p.first_name, p.last_name, p.is_host, p.details, decode(p.token_hash, 'hex')
         FROM jsonb_to_recordset($13) AS p(id uuid, role text, "index" integer, email text, first_name text,
                                          last_name text, is_host boolean, details jsonb, token_hash text)),
     waiver AS (
       INSERT INTO identity_checks (session_id, participant_id, method, attempt, outcome, allowed_by, completed_at, reported_at)
       SELECT $1, w.participant_id, 'skip', 1, 'skipped', $14, now(), now()
         FROM jsonb_to_recordset($15) AS w(participant_id uuid)),
     document AS (${DOCUMENTS_FROM_JSON('$1', '$16')}),
     invitation AS (
       INSERT INTO email_outbox (session_id, participant_id, kind, to_email, subject, body, state)
       SELECT $1, i.participant_id, 'invitation', i.to_email, i.subject, i.body, 'held'
         FROM jsonb_to_recordset($17) AS i(participant_id uuid, to_email text, subject text, body text))
     SELECT pg_current_xact_id()::text AS transaction_id`,
);

/**
 * Writes a new session as one statement of the create's transaction: the session, its participants, the
 * identity checks its account waived, its documents and its held invitations. Each statement costs a round
 * trip with its own parse, plan and wake-ups on both sides, which for these few small rows is most of their
 * cost. Answers the transaction's id, which the workflow asks PostgreSQL about to learn whether the rows
 * committed.
 */
export async function insertSession(
  sequelize: Sequelize,
  created: NewSession,
  transaction: Transaction,
): Promise<string> {
  const { session } = created;
  const [row] = await queryRows<{ transaction_id: string }>(sequelize, INSERT_SESSION, {
    bind: [
      session.id,
      session.accountId,
      session.notarizationId,
      session.status,
      session.signingType,
      session.sessionType,
      session.notarizationTimingType,
      session.sessionTiming,
      session.expiresAt,
      session.notaryMemberId,
      JSON.stringify(session.options),
      session.workflowId,
      JSON.stringify(created.participants),
      created.waivedBy,
      JSON.stringify(created.waived.map((p) => ({ participant_id: p.id }))),
      JSON.stringify(documentRecords(created.documents, 0, created.notaryCanEditAll)),
      JSON.stringify(created.invitations),
      JSON.stringify(session.plan),
    ],
    transaction,
  });
  return row.transaction_id;
}
