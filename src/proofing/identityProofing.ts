import type { Sequelize, Transaction } from 'sequelize';
import { executeUpdate } from '../temporal/updates';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { IdentityPolicy } from '../config';
import { TEMPORAL_DEADLINE_MS, type TemporalHandle } from '../temporal/client';
import { conflict, invalid, notFound, unavailable } from '../domain/errors';
import { isUnavailable } from '../infra/unavailable';
import { execute, queryRows } from '../db/query';
import { isFinal } from '../../core/session/machine';
import { identityOutcomeUpdate, type IdentityOutcome, type SessionStatus } from '../../core/session/messages';
import { verdictOfUpdateFailure } from '../sessions/sessionRules';
import {
  judgeAttempt,
  judgeKba,
  lockoutAfterFailure,
  newQuestionsNeeded,
  type PastAttempt,
} from './attemptRules';
import { checkAskedOf, type AskedCheck } from '../../core/session/identityChecks';
import type { IdImageKind, IdentityProvider, IdentitySubject, KbaAnswer, KbaQuestion } from './providers';

/** The first key of the advisory lock that holds one participant's attempt slot (the second: their id's hash). */
const ATTEMPT_SLOT_LOCK = 0x1d_c4ec;

/** A participant as identity proofing sees them: who they are, what is asked of them, their session. */
export interface IdentityParticipant {
  participantId: string;
  sessionId: string;
  workflowId: string;
  sessionStatus: SessionStatus;
  role: 'signer' | 'witness';
  index: number;
  email: string;
  asked: AskedCheck;
  subject: IdentitySubject;
  /** Joined, or (same-device signing) their host has: checks come after joining. */
  present: boolean;
}

interface CheckRow {
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

export interface IdentityState {
  /** What the session asks: `kba`, `biometrics`, `skip` (waived), or `none` (nothing asked). */
  method: AskedCheck;
  /** `not_required`, `waived`, `pending` (may try), `in_progress` (a quiz is open), `passed`, `locked_out`. */
  status: 'not_required' | 'waived' | 'pending' | 'in_progress' | 'passed' | 'locked_out';
  attempts: number;
  attempts_left: number | null;
  locked_until: string | null;
  /** The open KBA quiz, so a reload resumes it. */
  open_check: { check_id: string; deadline: string } | null;
  last_failure: { attempt: number; reasons: string[] } | null;
  /** When the check passed (or was waived). */
  verified_at: string | null;
}

export interface KbaQuiz {
  check_id: string;
  attempt: number;
  deadline: string;
  questions: KbaQuestion[];
}

export interface IdImages {
  id_front: Buffer;
  id_back?: Buffer;
  selfie: Buffer;
}

const PARTICIPANT_SELECT = `
  SELECT p.id AS participant_id, p.role, p.index, p.email, p.first_name, p.last_name, p.details,
         p.joined_at, p.network_witness_id, p.is_host,
         s.id AS session_id, s.workflow_id, s.status,
         s.options -> 'session_configurations' ->> 'same_device_signing_mode' AS same_device_signing_mode,
         coalesce((s.options -> 'witnesses' ->> 'service_witness_id_auth_required')::boolean, false) AS witness_auth,
         EXISTS (SELECT 1 FROM participants h WHERE h.session_id = s.id AND h.role = 'signer' AND h.is_host
                 AND h.joined_at IS NOT NULL) AS host_joined
    FROM participants p JOIN sessions s ON s.id = p.session_id`;

interface ParticipantRow {
  participant_id: string;
  role: 'signer' | 'witness';
  index: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  details: Record<string, unknown>;
  joined_at: Date | null;
  network_witness_id: string | null;
  is_host: boolean;
  session_id: string;
  workflow_id: string;
  status: SessionStatus;
  same_device_signing_mode: string | null;
  witness_auth: boolean;
  host_joined: boolean;
}

/**
 * Identity proofing between joining and being admitted: attempts are judged by the identity rules,
 * checked by the provider, kept per participant, and each outcome is recorded by the session's workflow
 * (events, the start rule). An outcome the workflow has not recorded yet is sent again on the
 * participant's next identity request, so an outage loses none.
 */
export class IdentityProofing {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly temporal: TemporalHandle,
    private readonly provider: IdentityProvider,
    private readonly policy: IdentityPolicy,
  ) {}

  /**
   * The participant `condition` finds (a signing link's token, a network witness's place), or with
   * `signerIndex` the fellow signer a same-device host verifies for.
   */
  async participantWhere(
    condition: string,
    bind: unknown[],
    {
      signerIndex,
      notFoundMessage = 'Signing link not found',
    }: { signerIndex?: number; notFoundMessage?: string } = {},
  ): Promise<IdentityParticipant> {
    const [row] = await queryRows<ParticipantRow>(
      this.sequelize,
      `${PARTICIPANT_SELECT} WHERE ${condition}`,
      { bind },
    );
    if (!row) throw notFound(notFoundMessage);
    if (signerIndex === undefined || (row.role === 'signer' && row.index === signerIndex))
      return participantOf(row);
    if (!(row.role === 'signer' && row.is_host && row.same_device_signing_mode === 'all'))
      throw invalid('signer_index: only the host of same-device signing verifies other signers');
    const [other] = await queryRows<ParticipantRow>(
      this.sequelize,
      `${PARTICIPANT_SELECT} WHERE p.session_id = $1 AND p.role = 'signer' AND p.index = $2`,
      { bind: [row.session_id, signerIndex] },
    );
    if (!other) throw invalid(`signer_index: the session has no signer ${signerIndex}`);
    return participantOf(other);
  }

  async state(participant: IdentityParticipant): Promise<IdentityState> {
    await this.reportPending(participant);
    const checks = await this.checksOf(participant.participantId);
    const settled = checks.find((c) => c.outcome === 'passed' || c.outcome === 'skipped');
    const base = {
      attempts: checks.filter((c) => c.method !== 'skip').length,
      open_check: null,
      last_failure: null,
      verified_at: settled?.completed_at?.toISOString() ?? null,
    };
    if (participant.asked === 'none')
      return { ...base, method: 'none', status: 'not_required', attempts_left: null, locked_until: null };
    if (participant.asked === 'skip')
      return { ...base, method: 'skip', status: 'waived', attempts_left: null, locked_until: null };
    const open = checks.find((c) => c.outcome === null && c.deadline && c.deadline.getTime() > Date.now());
    const failed = checks.filter((c) => c.outcome === 'failed').at(-1);
    const verdict = judgeAttempt(pastOf(checks), this.policy, Date.now());
    return {
      ...base,
      method: participant.asked,
      status:
        verdict.outcome === 'passed'
          ? 'passed'
          : verdict.outcome === 'locked'
            ? 'locked_out'
            : open
              ? 'in_progress'
              : 'pending',
      attempts_left: verdict.outcome === 'allowed' ? verdict.attemptsLeft + 1 : 0,
      locked_until: verdict.outcome === 'locked' ? new Date(verdict.until).toISOString() : null,
      open_check: open ? { check_id: open.id, deadline: open.deadline!.toISOString() } : null,
      last_failure: failed ? { attempt: failed.attempt, reasons: failed.reasons } : null,
    };
  }

  /** Starts a KBA attempt (or resumes the open one): its questions, and the instant answers are due. */
  async startKba(participant: IdentityParticipant): Promise<KbaQuiz> {
    this.assertMayTry(participant, 'kba');
    await this.reportPending(participant);
    const quiz = await this.holdingAttemptSlot(participant, async (checks, transaction) => {
      const stale = checks.find(
        (c) => c.outcome === null && c.deadline && c.deadline.getTime() <= Date.now(),
      );
      if (stale) checks = await this.closeTimedOut(checks, stale, transaction);
      const open = checks.find((c) => c.outcome === null);
      if (open) return this.quizOf(open);
      const verdict = this.judgeNow(checks);
      const previous = verdict.retakeOf ? checks.find((c) => c.attempt === verdict.retakeOf) : undefined;
      const { verificationId } = await this.provider.createKbaVerification(participant.subject, {
        questions: this.policy.kbaQuestions,
        choices: this.policy.kbaChoices,
        avoidQuestionIds: previous?.question_ids ?? [],
        newQuestions: previous ? newQuestionsNeeded(this.policy) : 0,
      });
      const questions = await this.provider.getKbaQuestions(verificationId);
      const opened = await this.insertAttempt(
        participant,
        { method: 'kba', verificationId, attempt: verdict.attempt },
        { questionIds: questions.map((q) => q.id), timeLimitMs: this.policy.kbaTimeLimitMs },
        transaction,
      );
      return this.quizOf(opened, questions);
    });
    // A quiz that timed out above is a failure the workflow records.
    await this.reportPending(participant);
    return quiz;
  }

  /** Scores the open KBA attempt; answering a scored attempt again returns its outcome. */
  async answerKba(participant: IdentityParticipant, checkId: string, answers: KbaAnswer[]) {
    const done = await this.holdingAttemptSlot(participant, async (checks, transaction) => {
      const check = checks.find((c) => c.id === checkId && c.method === 'kba');
      if (!check) throw notFound('Identity check not found');
      if (check.outcome !== null) return check;
      this.assertSessionOpen(participant);
      const score = await this.provider.submitKbaAnswers(check.provider_verification_id!, answers);
      const judged = judgeKba(score, check.started_at.getTime(), Date.now(), this.policy);
      return this.complete(
        checks,
        check,
        {
          outcome: judged.passed ? 'passed' : 'failed',
          correct: score.correct,
          total: score.total,
          reasons: judged.reason ? [judged.reason] : [],
        },
        transaction,
      );
    });
    await this.report(participant, done);
    return this.answerOf(done);
  }

  /** Credential analysis of the ID and a face match of the selfie, in one attempt. */
  async checkId(participant: IdentityParticipant, images: IdImages) {
    this.assertMayTry(participant, 'biometrics');
    await this.reportPending(participant);
    const { done, result } = await this.holdingAttemptSlot(participant, async (checks, transaction) => {
      const verdict = this.judgeNow(checks);
      const { verificationId } = await this.provider.createIdVerification(participant.subject);
      const uploads: Array<[IdImageKind, Buffer | undefined]> = [
        ['id_front', images.id_front],
        ['id_back', images.id_back],
        ['selfie', images.selfie],
      ];
      for (const [kind, image] of uploads)
        if (image) await this.provider.uploadIdImage(verificationId, kind, image);
      const result = await this.provider.getIdResult(verificationId);
      const opened = await this.insertAttempt(
        participant,
        { method: 'biometrics', verificationId, attempt: verdict.attempt },
        undefined,
        transaction,
      );
      const passed = result.document === 'authentic' && result.face === 'match';
      const done = await this.complete(
        checks,
        opened,
        { outcome: passed ? 'passed' : 'failed', reasons: result.reasons },
        transaction,
      );
      return { done, result };
    });
    await this.report(participant, done);
    return { ...this.answerOf(done), document: result.document, face: result.face };
  }

  /**
   * Runs one attempt's judging, scoring and recording while holding the participant's attempt slot, on the
   * checks as they stand then: a concurrent request for the same participant is refused at once rather than
   * judged on the same attempts left, so no more attempts are ever scored than the rules allow.
   */
  private holdingAttemptSlot<T>(
    participant: IdentityParticipant,
    work: (checks: CheckRow[], transaction: Transaction) => Promise<T>,
  ): Promise<T> {
    return this.sequelize.transaction(async (transaction) => {
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
  private async insertAttempt(
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
          this.provider.name,
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

  private assertMayTry(participant: IdentityParticipant, method: 'kba' | 'biometrics'): void {
    if (participant.asked !== method)
      throw conflict(
        participant.asked === 'none' || participant.asked === 'skip'
          ? 'No identity check is asked of this participant'
          : `This participant's identity check is ${participant.asked === 'kba' ? 'KBA' : 'an ID check'}`,
      );
    this.assertSessionOpen(participant);
    if (!participant.present) throw conflict('Join the session before verifying your identity');
  }

  private assertSessionOpen(participant: IdentityParticipant): void {
    if (isFinal(participant.sessionStatus))
      throw conflict(`Session has ended: it is ${participant.sessionStatus}`);
  }

  private judgeNow(checks: CheckRow[]) {
    const verdict = judgeAttempt(pastOf(checks), this.policy, Date.now());
    if (verdict.outcome === 'passed') throw conflict('Identity already verified');
    if (verdict.outcome === 'locked') {
      const seconds = Math.max(1, Math.ceil((verdict.until - Date.now()) / 1000));
      throw conflict(
        `Identity verification is locked after too many failed attempts; try again after ${new Date(verdict.until).toISOString()}`,
        seconds,
      );
    }
    return verdict;
  }

  /** An open quiz past its time limit is a failed attempt (abandoned quizzes count, as the rules require). */
  private async closeTimedOut(
    checks: CheckRow[],
    stale: CheckRow,
    transaction: Transaction,
  ): Promise<CheckRow[]> {
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
  private async complete(
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

  /** Outcomes the workflow has not recorded yet (an outage when they were decided). */
  private async reportPending(participant: IdentityParticipant): Promise<void> {
    for (const check of await this.checksOf(participant.participantId))
      if (check.outcome && check.outcome !== 'skipped' && !check.reported_at)
        await this.report(participant, check);
  }

  private async report(participant: IdentityParticipant, check: CheckRow): Promise<void> {
    if (check.reported_at || check.method === 'skip' || !check.outcome || check.outcome === 'skipped') return;
    const retake = check.outcome === 'failed' && !check.locked_until ? this.retakeUntil(check) : undefined;
    const outcome: IdentityOutcome = {
      checkId: check.id,
      role: participant.role,
      index: participant.index,
      email: participant.email,
      method: check.method,
      outcome: check.outcome,
      attempt: check.attempt,
      ...(check.correct !== null ? { correct: check.correct, total: check.total! } : {}),
      reasons: check.reasons,
      ...(check.locked_until ? { lockedUntil: check.locked_until.toISOString() } : {}),
      ...(retake ? { retakeUntil: retake } : {}),
    };
    try {
      await executeUpdate(
        this.temporal,
        participant.workflowId,
        identityOutcomeUpdate,
        [outcome],
        Date.now() + TEMPORAL_DEADLINE_MS,
      );
    } catch (err) {
      const verdict = verdictOfUpdateFailure(err);
      // Already recorded, or the session ended (nothing left to admit anyone to): nothing to send again.
      if (!verdict && !(err instanceof WorkflowNotFoundError)) {
        if (isUnavailable(err)) throw unavailable('The session could not be reached; retry');
        throw err;
      }
    }
    await execute(this.sequelize, 'UPDATE identity_checks SET reported_at = now() WHERE id = $1', {
      bind: [check.id],
    });
  }

  private retakeUntil(failed: CheckRow): string | undefined {
    if (this.policy.attempts < 2) return undefined;
    return new Date((failed.completed_at ?? new Date()).getTime() + this.policy.retakeWindowMs).toISOString();
  }

  private async quizOf(check: CheckRow, questions?: KbaQuestion[]): Promise<KbaQuiz> {
    return {
      check_id: check.id,
      attempt: check.attempt,
      deadline: check.deadline!.toISOString(),
      questions: (questions ?? (await this.provider.getKbaQuestions(check.provider_verification_id!))).map(
        (q) => ({
          id: q.id,
          prompt: q.prompt,
          choices: q.choices,
        }),
      ),
    };
  }

  private answerOf(check: CheckRow) {
    return {
      check_id: check.id,
      attempt: check.attempt,
      outcome: check.outcome as 'passed' | 'failed',
      ...(check.correct !== null ? { correct: check.correct, total: check.total } : {}),
      reasons: check.reasons,
      locked_until: check.locked_until?.toISOString() ?? null,
      retake_until:
        check.outcome === 'failed' && !check.locked_until ? (this.retakeUntil(check) ?? null) : null,
    };
  }

  private checksOf(participantId: string, transaction?: Transaction): Promise<CheckRow[]> {
    return queryRows<CheckRow>(
      this.sequelize,
      'SELECT * FROM identity_checks WHERE participant_id = $1 ORDER BY attempt, started_at',
      { bind: [participantId], transaction },
    );
  }
}

function pastOf(checks: CheckRow[]): PastAttempt[] {
  return checks.map((c) => ({
    attempt: c.attempt,
    outcome: c.outcome,
    at: (c.completed_at ?? c.started_at).getTime(),
  }));
}

function participantOf(row: ParticipantRow): IdentityParticipant {
  const details = row.details ?? {};
  const str = (key: string) =>
    typeof details[key] === 'string' && details[key] ? (details[key] as string) : null;
  return {
    participantId: row.participant_id,
    sessionId: row.session_id,
    workflowId: row.workflow_id,
    sessionStatus: row.status,
    role: row.role,
    index: row.index,
    email: row.email,
    asked: checkAskedOf({
      role: row.role,
      details,
      isNetworkWitness: row.network_witness_id !== null,
      serviceWitnessIdAuthRequired: row.witness_auth,
    }),
    subject: {
      firstName: row.first_name,
      middleName: str('middle_name'),
      lastName: row.last_name,
      email: row.email,
      address: str('address') ?? str('witnessAdressLine1'),
      city: str('city'),
      state: str('state') ?? str('witnessAddressState'),
      zip: str('zip'),
      phone: str('contact_details') ?? str('phoneNumber'),
    },
    present:
      row.joined_at !== null ||
      (row.role === 'signer' && row.same_device_signing_mode === 'all' && row.host_joined),
  };
}
