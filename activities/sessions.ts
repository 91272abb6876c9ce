import { ApplicationFailure, Context } from '@temporalio/activity';
import type { ActivityDependencies } from './dependencies';
import type { DocumentsStatus, NotaryAtTheAct, SessionStatus } from '../core/session/messages';
import { execute, queryRows, rowExists } from '../src/db/query';
import { commissionInForceSql } from '../src/team/jurisdictionTime';
import { networkCommissionDates } from '../src/network/commissionHorizon';
import {
  MEMBER_NAME,
  NETWORK_NOTARY_NAME,
  NOTARY_AT_THE_ACT,
  SESSION_NOTARY_JOINS,
} from '../src/db/sessionNotary';
import type { EventNotary } from '../core/session/events';
import { networkNotaryIsFreeSql } from '../src/network/notaryAvailability';

const LEGACY_CONFIRM_ATTEMPTS = 8;

export interface NotaryAssignment {
  notary: EventNotary | null;
  retryAfterMs: number;
}

export function sessionActivities({ sequelize, config }: Pick<ActivityDependencies, 'sequelize' | 'config'>) {
  return {
    /**
     * Succeeds once the API's transaction that created the session is visible. PostgreSQL itself says
     * whether that transaction committed, aborted or is still open, so the session is given up
     * (`SessionNotRecorded`, not retried) only when its rows can never appear; an open transaction or
     * an unreachable database is retried.
     */
    async confirmSessionRecorded({
      sessionId,
      transactionId,
    }: {
      sessionId: string;
      transactionId?: string;
    }): Promise<void> {
      const recorded = () =>
        rowExists(sequelize, 'SELECT 1 FROM sessions WHERE id = $1', { bind: [sessionId] });
      if (await recorded()) return;
      const notRecorded = (why: string) =>
        ApplicationFailure.nonRetryable(`session ${sessionId} is not recorded: ${why}`, 'SessionNotRecorded');
      if (!transactionId) {
        // Started before the API passed its transaction id: the earlier rule of a bounded wait.
        if (Context.current().info.attempt >= LEGACY_CONFIRM_ATTEMPTS) throw notRecorded('not visible');
        throw ApplicationFailure.retryable(`session ${sessionId} is not visible yet`, 'SessionNotVisible');
      }
      const xact = await queryRows<{ status: 'committed' | 'aborted' | 'in progress' | null }>(
        sequelize,
        'SELECT pg_xact_status($1::xid8) AS status',
        {
          bind: [transactionId],
        },
      );
      if (xact[0].status === 'in progress')
        throw ApplicationFailure.retryable(`session ${sessionId} is not committed yet`, 'SessionNotVisible');
      // The transaction may have committed between the first read and the question: a read begun now,
      // after PostgreSQL called it committed, sees its rows.
      if (xact[0].status === 'committed' && (await recorded())) return;
      throw notRecorded(`its transaction is ${xact[0].status ?? 'no longer known'}`);
    },

    /**
     * Mirrors the workflow's state into the session row; setting the same values twice is harmless.
     * `completedAt` is the act's time as the workflow decided it, however late this write lands (a
     * database outage across midnight must not move the certificate's date); workflows from before it
     * was passed leave it to the database's clock. The completion also keeps the notary whose commission
     * it was judged by (`actNotary`), so a record changed since, even while this write waited out an
     * outage, is not what the certificates state; completions from before it was passed keep the notary
     * as on file now.
     */
    async recordStatus(input: {
      sessionId: string;
      status: SessionStatus;
      documentsStatus: DocumentsStatus;
      completedAt?: string;
      actNotary?: NotaryAtTheAct;
    }): Promise<void> {
      await execute(
        sequelize,
        `UPDATE sessions SET status = $2, documents_status = $3, updated_at = now(),
                completed_at = CASE WHEN $2 = 'completed' THEN coalesce(completed_at, $4::timestamptz, now())
                                    ELSE completed_at END,
                act_notary = CASE WHEN $2 = 'completed' AND act_notary IS NULL
                                  THEN coalesce($5::jsonb,
                                                (SELECT ${NOTARY_AT_THE_ACT} FROM sessions s ${SESSION_NOTARY_JOINS} WHERE s.id = $1))
                                  ELSE act_notary END
          WHERE id = $1`,
        {
          bind: [
            input.sessionId,
            input.status,
            input.documentsStatus,
            input.completedAt ?? null,
            input.actNotary ? JSON.stringify(input.actNotary) : null,
          ],
        },
      );
    },

    async assignTeamNotary({
      sessionId,
      memberId,
    }: {
      sessionId: string;
      memberId: string;
    }): Promise<NotaryAssignment> {
      const rows = await queryRows<{ email: string; name: string }>(
        sequelize,
        `SELECT u.email, ${MEMBER_NAME} AS name FROM account_members m JOIN users u ON u.id = m.user_id
          WHERE m.id = $1`,
        { bind: [memberId] },
      );
      await execute(sequelize, 'UPDATE sessions SET notary_member_id = $2 WHERE id = $1', {
        bind: [sessionId, memberId],
      });
      return { notary: { ...rows[0], source: 'team' }, retryAfterMs: 0 };
    },

    /**
     * The on-demand network for workflows from before offers: a notary whose commission is in force for
     * the next 24 hours (in the requested state, if any) who is free, neither in an unfinished session
     * nor offered one by a newer workflow. Row locks with SKIP LOCKED keep two sessions from taking the
     * same one; a session that already has its notary keeps it, so a retried attempt changes nothing.
     */
    async assignNetworkNotary({
      sessionId,
      state,
    }: {
      sessionId: string;
      state?: string;
    }): Promise<NotaryAssignment> {
      return sequelize.transaction(async (transaction) => {
        const rows = await queryRows<{ id: string; email: string; name: string }>(
          sequelize,
          `WITH current AS (
             SELECT n.* FROM sessions s JOIN network_notaries n ON n.id = s.network_notary_id WHERE s.id = $1
           ), candidate AS (
             SELECT n.* FROM network_notaries n
              WHERE NOT EXISTS (SELECT 1 FROM current)
                AND ${commissionInForceSql('n', '$3')}
                AND ($2::text IS NULL OR n.state = $2)
                AND ${networkNotaryIsFreeSql('n')}
              ORDER BY n.created_at, n.id
              LIMIT 1
              FOR UPDATE SKIP LOCKED
           )
           SELECT id, email, ${NETWORK_NOTARY_NAME} AS name FROM current n
           UNION ALL
           SELECT id, email, ${NETWORK_NOTARY_NAME} AS name FROM candidate n`,
          { bind: [sessionId, state ?? null, networkCommissionDates(Date.now())], transaction },
        );
        if (!rows.length) return { notary: null, retryAfterMs: config.notaryRetryIntervalMs };
        await execute(sequelize, 'UPDATE sessions SET network_notary_id = $2 WHERE id = $1', {
          bind: [sessionId, rows[0].id],
          transaction,
        });
        return { notary: { email: rows[0].email, name: rows[0].name, source: 'network' }, retryAfterMs: 0 };
      });
    },
  };
}
