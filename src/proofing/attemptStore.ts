import type { Sequelize, Transaction } from 'sequelize';
import { inTransaction } from '../db/transaction';
import type { IdentityPolicy } from '../config';
import { conflict } from '../domain/errors';
import { queryRows } from '../db/query';
import { lockoutAfterFailure, type PastAttempt } from './attemptRules';
import type { IdentityParticipant } from './participant';

/** The first key of the advisory lock that holds one participant's attempt slot (the second: their id's hash). */
const ATTEMPT_SLOT_LOCK = 0x1d_c4ec;

/** One identity check as `identity_checks` keeps it: an attempt (KBA quiz, ID check) or a waiver. */
export interface CheckRow {
  id: string;
  method: 'kba' | 'biometrics' | 'skip';
  attempt: number;
  question_ids: string[];
  provider_verification_id: string | null;
  outcome: 'passed' | 'failed' | 'skipped' | null;
  correct: number | null;
  total: number | null;
  reasons: string[];
  allowed_by: string | null;
  locked_until: Date | null;
  started_at: Date;
  deadline: Date | null;
  completed_at: Date | null;
  reported_at: Date | null;
}

/**
 * The participant's identity checks: read, opened, scored. Attempts are judged and recorded only while
 * the participant's attempt slot is held, so concurrent requests never score more than the rules allow.
 */
export class AttemptStore {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly providerName: string,
    private readonly policy: IdentityPolicy,
  ) {}

  checksOf(participantId: string, transaction?: Transaction): Promise<CheckRow[]> {
    return queryRows<CheckRow>(
      this.sequelize,
      'SELECT * FROM identity_checks WHERE participant_id = $1 ORDER BY attempt, started_at',
      { bind: [participantId], transaction },
    );
  }

  /**
   * Runs one attempt's judging, scoring and recording while holding the participant's attempt slot, on the
   * checks as they stand then: a concurrent request for the same participant is refused at once rather than
   * judged on the same attempts left, so no more attempts are ever scored than the rules allow.
   */
  holdingAttemptSlot<T>(
    participant: IdentityParticipant,
    work: (checks: CheckRow[], transaction: Transaction) => Promise<T>,
  ): Promise<T> {
    return inTransaction(this.sequelize, async (transaction) => {
      const [{ held }] = await queryRows<{ held: boolean }>(
        this.sequelize,
        'SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS held',
        { bind: [ATTEMPT_SLOT_LOCK, participant.participantId], transaction },
      );
      if (!held) throw conflict('Another identity check of this participant is in progress; retry', 1);
      return work(await this.checksOf(participant.participantId, transaction), transaction);
    });
  }

  /** Records a new attempt, open until it is scored (or its quiz times out). */
  async insertAttempt(
    participant: IdentityParticipant,
    attempt: { method: 'kba' | 'biometrics'; verificationId: string; attempt: number },
    quiz: { questionIds: string[]; timeLimitMs: number } | undefined,
    transaction: Transaction,
  ): Promise<CheckRow> {
    const [inserted] = await queryRows<CheckRow>(
      this.sequelize,
      `INSERT INTO identity_checks (session_id, participant_id, method, provider, provider_verification_id, attempt,
                                    question_ids, deadline)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now() + $8 * interval '1 millisecond') RETURNING *`,
      {
        bind: [
          participant.sessionId,
          participant.participantId,
          attempt.method,
          this.providerName,
          attempt.verificationId,
          attempt.attempt,
          quiz?.questionIds ?? [],
          quiz?.timeLimitMs ?? null,
        ],
        transaction,
      },
    );
    return inserted;
  }

  /** An open quiz past its time limit is a failed attempt (abandoned quizzes count, as the rules require). */
  async closeTimedOut(checks: CheckRow[], stale: CheckRow, transaction: Transaction): Promise<CheckRow[]> {
    const closed = await this.complete(
      checks,
      stale,
      {
        outcome: 'failed',
        // The limit the quiz was given when it started, whatever the policy says now.
        reasons: [
          `no answers within the ${(stale.deadline!.getTime() - stale.started_at.getTime()) / 1000} s time limit`,
        ],
      },
      transaction,
    );
    return checks.map((c) => (c.id === closed.id ? closed : c));
  }

  /** Scores an open attempt, with the lockout it leads to when it used the round's last attempt. */
  async complete(
    checks: CheckRow[],
    check: CheckRow,
    result: { outcome: 'passed' | 'failed'; correct?: number; total?: number; reasons: string[] },
    transaction: Transaction,
  ): Promise<CheckRow> {
    const lockedUntil =
      result.outcome === 'failed'
        ? lockoutAfterFailure(
            pastOf(checks),
            { attempt: check.attempt, outcome: 'failed', at: Date.now() },
            this.policy,
          )
        : undefined;
    const [done] = await queryRows<CheckRow>(
      this.sequelize,
      `UPDATE identity_checks SET outcome = $2, correct = $3, total = $4, reasons = $5, locked_until = $6, completed_at = now()
        WHERE id = $1 AND outcome IS NULL RETURNING *`,
      {
        bind: [
          check.id,
          result.outcome,
          result.correct ?? null,
          result.total ?? null,
          result.reasons,
          lockedUntil ? new Date(lockedUntil) : null,
        ],
        transaction,
      },
    );
    return done;
  }
}

export function pastOf(checks: CheckRow[]): PastAttempt[] {
  return checks.map((c) => ({
    attempt: c.attempt,
    outcome: c.outcome,
    at: (c.completed_at ?? c.started_at).getTime(),
  }));
}
