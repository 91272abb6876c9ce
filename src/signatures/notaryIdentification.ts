import type { Sequelize, Transaction } from 'sequelize';
import type { TransactionsThroughTemporal } from '../sessions/transactionsThroughTemporal';
import { conflict, notFound, refused } from '../domain/errors';
import { execute, queryRows } from '../db/query';
import type { ParticipantLookup } from '../reads/participantLookup';
import { answerFailedTransaction, appliedOrRollBack, updateSession } from '../temporal/sessionUpdates';
import type { TemporalHandle } from '../temporal/client';
import type { Actor } from '../../core/session/machine';
import { identityOutcomeUpdate } from '../../core/session/messages';
import type { SessionRow } from '../../core/session/rows';

/** How the notary identified a participant the account asked no check of. */
export type IdentificationBasis =
  { basis: 'personal_knowledge' } | { basis: 'credible_witness'; credible_witness_name: string };

export const statementOf = (b: IdentificationBasis) =>
  b.basis === 'personal_knowledge'
    ? 'personal knowledge of the notary'
    : `the sworn statement of credible witness ${b.credible_witness_name}`;

/**
 * A live act's signer with no identity check (`skip`) is identified by the notary in the session: the
 * notary attests how (personal knowledge, a credible witness), recorded as a `notary` identity check that
 * the workflow counts (event `identity_verified`, method `notary`) and the certificate cites. An account
 * cannot waive what the law asks of the notary.
 */
export class NotaryIdentification {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly temporal: TemporalHandle,
    private readonly participants: ParticipantLookup,
    private readonly transactions: TransactionsThroughTemporal,
  ) {}

  async identify(session: SessionRow, actor: Actor, index: number, basis: IdentificationBasis) {
    const theNotary =
      (actor.kind === 'member' && actor.memberId === session.notary_member_id) ||
      (actor.kind === 'network_notary' && actor.notaryId === session.network_notary_id);
    if (!theNotary) throw refused('Only the session’s notary identifies a participant');
    const signer = await this.participants.signerOf(session.id, index);
    if (!signer) throw notFound('Participant not found');
    if (!(session.plan.notaryIdentifies ?? []).some((p) => p.role === 'signer' && p.index === index))
      throw conflict('This signer’s identity is established by their own identity check');
    if (session.status !== 'in_progress')
      throw conflict(`The notary identifies a signer in the live session: it is ${session.status}`);
    const statement = statementOf(basis);
    const attestedBy = actor.kind === 'member' ? actor.memberId : actor.kind;
    let kept!: { id: string; completed_at: Date };
    try {
      // Recorded only once the workflow counts it: identifying someone not on camera leaves no trace.
      await this.transactions.run(async (transaction) => {
        kept = await this.recordCheck(session.id, signer.participant_id, statement, attestedBy, transaction);
        appliedOrRollBack(
          await updateSession(this.temporal, session.workflow_id, identityOutcomeUpdate, [
            {
              checkId: kept.id,
              role: 'signer',
              index,
              email: signer.email,
              method: 'notary',
              outcome: 'passed',
              attempt: 1,
              reasons: [statement],
            },
          ]),
        );
      });
    } catch (err) {
      answerFailedTransaction(err);
    }
    await execute(this.sequelize, 'UPDATE identity_checks SET reported_at = now() WHERE id = $1', {
      bind: [kept.id],
    });
    return { identified_at: kept.completed_at.toISOString(), statement };
  }

  /** The notary's identification as an identity check, once per signer (a retry finds the first). */
  private async recordCheck(
    sessionId: string,
    participantId: string,
    statement: string,
    attestedBy: string,
    transaction: Transaction,
  ): Promise<{ id: string; completed_at: Date }> {
    const [check] = await queryRows<{ id: string; completed_at: Date }>(
      this.sequelize,
      `INSERT INTO identity_checks (session_id, participant_id, method, provider, attempt, outcome, reasons, allowed_by,
                                    completed_at)
       SELECT $1, $2, 'notary', 'notary', 1, 'passed', ARRAY[$3], $4, now()
        WHERE NOT EXISTS (SELECT 1 FROM identity_checks WHERE participant_id = $2 AND method = 'notary')
       RETURNING id, completed_at`,
      { bind: [sessionId, participantId, statement, attestedBy], transaction },
    );
    if (check) return check;
    const [earlier] = await queryRows<{ id: string; completed_at: Date }>(
      this.sequelize,
      "SELECT id, completed_at FROM identity_checks WHERE participant_id = $1 AND method = 'notary'",
      { bind: [participantId], transaction },
    );
    return earlier;
  }
}
