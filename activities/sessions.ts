import { ApplicationFailure } from '@temporalio/activity';
import type { ActivityDependencies } from './dependencies';
import type { DocumentsStatus, NotaryAtTheAct, SessionStatus } from '../core/session/messages';
import { execute, queryRows, rowExists } from '../src/db/query';
import { MEMBER_NAME, NOTARY_AT_THE_ACT, SESSION_NOTARY_JOINS } from '../src/db/sessionNotary';
import type { EventNotary } from '../core/session/events';
import { isFinal } from '../core/session/statuses';
import { tellSessionsNotaryIsFree } from './freedNotaries';

export function sessionActivities(deps: Pick<ActivityDependencies, 'sequelize' | 'temporal'>) {
  const { sequelize } = deps;
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
      transactionId: string;
    }): Promise<void> {
      const recorded = () =>
        rowExists(sequelize, 'SELECT 1 FROM sessions WHERE id = $1', { bind: [sessionId] });
      if (await recorded()) return;
      const notRecorded = (why: string) =>
        ApplicationFailure.nonRetryable(`session ${sessionId} is not recorded: ${why}`, 'SessionNotRecorded');
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
     * database outage across midnight must not move the certificate's date). The completion also keeps the
     * notary whose commission it was judged by (`actNotary`), so a record changed since, even while this
     * write waited out an outage, is not what the certificates state. A network notary's session that ends
     * frees them: the sessions waiting longest are told.
     */
    async recordStatus(input: {
      sessionId: string;
      status: SessionStatus;
      documentsStatus: DocumentsStatus;
      completedAt?: string;
      actNotary?: NotaryAtTheAct;
    }): Promise<void> {
      const [session] = await queryRows<{ network_notary_id: string | null }>(
        sequelize,
        `UPDATE sessions SET status = $2, documents_status = $3, updated_at = now(),
                completed_at = CASE WHEN $2 = 'completed' THEN coalesce(completed_at, $4::timestamptz, now())
                                    ELSE completed_at END,
                act_notary = CASE WHEN $2 = 'completed' AND act_notary IS NULL
                                  THEN coalesce($5::jsonb,
                                                (SELECT ${NOTARY_AT_THE_ACT} FROM sessions s ${SESSION_NOTARY_JOINS} WHERE s.id = $1))
                                  ELSE act_notary END
          WHERE id = $1 RETURNING network_notary_id`,
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
      if (session?.network_notary_id && isFinal(input.status))
        await tellSessionsNotaryIsFree(deps, { notaryId: session.network_notary_id });
    },
  };
}

/** A named team notary recorded as the session's. */
export function teamNotaryActivities({ sequelize }: Pick<ActivityDependencies, 'sequelize'>) {
  return {
    async assignTeamNotary({
      sessionId,
      memberId,
    }: {
      sessionId: string;
      memberId: string;
    }): Promise<{ notary: EventNotary }> {
      const rows = await queryRows<{ email: string; name: string }>(
        sequelize,
        `SELECT u.email, ${MEMBER_NAME} AS name FROM account_members m JOIN users u ON u.id = m.user_id
          WHERE m.id = $1`,
        { bind: [memberId] },
      );
      await execute(sequelize, 'UPDATE sessions SET notary_member_id = $2 WHERE id = $1', {
        bind: [sessionId, memberId],
      });
      return { notary: { ...rows[0], source: 'team' } };
    },
  };
}
