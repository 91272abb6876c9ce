import { photoShortfalls } from './photoRequirements';
import type { Sequelize } from 'sequelize';
import type { IdentityPolicy } from '../config';
import type { TemporalHandle } from '../temporal/client';
import { conflict, invalid, notFound } from '../domain/errors';
import { isFinal } from '../../core/session/statuses';
import type { ParticipantLookup, ParticipantRecord } from '../reads/participantLookup';
import { judgeAttempt, judgeKba, newQuestionsNeeded } from './attemptRules';
import { AttemptStore, pastOf, type CheckRow } from './attemptStore';
import { OutcomeReports } from './outcomeReports';
import type { IdCheckImages } from './idCheckImages';
import { identityParticipantOf, type IdentityParticipant } from './participant';
import type { IdImageKind, IdentityProvider, KbaAnswer } from './providers';
import type { CheckAnswer, IdentityState, KbaQuestion, KbaQuiz } from '../../core/wire/journey';

export interface IdImages {
  id_front: Buffer;
  id_back?: Buffer;
  selfie: Buffer;
}

export class IdentityProofing {
  private readonly store: AttemptStore;
  private readonly reports: OutcomeReports;

  constructor(
    sequelize: Sequelize,
    temporal: TemporalHandle,
    private readonly provider: IdentityProvider,
    private readonly policy: IdentityPolicy,
    private readonly participants: ParticipantLookup,
    private readonly idImages: IdCheckImages,
  ) {
    this.store = new AttemptStore(sequelize, provider.name, policy);
    this.reports = new OutcomeReports(sequelize, temporal, policy, this.store);
  }

  /**
   * The participant a record stands for, or with `signerIndex` the fellow signer a same-device host
   * verifies for on their own device.
   */
  async participantFor(record: ParticipantRecord, signerIndex?: number): Promise<IdentityParticipant> {
    if (signerIndex === undefined || (record.role === 'signer' && record.index === signerIndex))
      return identityParticipantOf(record);
    if (!(record.role === 'signer' && record.is_host && record.same_device_signing_mode === 'all'))
      throw invalid('signer_index: only the host of same-device signing verifies other signers');
    const other = await this.participants.signerOf(record.session_id, signerIndex);
    if (!other) throw invalid(`signer_index: the session has no signer ${signerIndex}`);
    return identityParticipantOf(other);
  }

  async state(participant: IdentityParticipant): Promise<IdentityState> {
    await this.reports.reportPending(participant);
    const checks = await this.store.checksOf(participant.participantId);
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
    await this.reports.reportPending(participant);
    const quiz = await this.store.holdingAttemptSlot(participant, async (checks, transaction) => {
      const stale = checks.find(
        (c) => c.outcome === null && c.deadline && c.deadline.getTime() <= Date.now(),
      );
      if (stale) checks = await this.store.closeTimedOut(checks, stale, transaction);
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
      const opened = await this.store.insertAttempt(
        participant,
        { method: 'kba', verificationId, attempt: verdict.attempt },
        { questionIds: questions.map((q) => q.id), timeLimitMs: this.policy.kbaTimeLimitMs },
        transaction,
      );
      return this.quizOf(opened, questions);
    });
    // A quiz that timed out above is a failure the workflow records.
    await this.reports.reportPending(participant);
    return quiz;
  }

  /** Scores the open KBA attempt; answering a scored attempt again returns its outcome. */
  async answerKba(participant: IdentityParticipant, checkId: string, answers: KbaAnswer[]) {
    const done = await this.store.holdingAttemptSlot(participant, async (checks, transaction) => {
      const check = checks.find((c) => c.id === checkId && c.method === 'kba');
      if (!check) throw notFound('Identity check not found');
      if (check.outcome !== null) return check;
      this.assertSessionOpen(participant);
      const score = await this.provider.submitKbaAnswers(check.provider_verification_id!, answers);
      const judged = judgeKba(score, check.started_at.getTime(), Date.now(), this.policy);
      return this.store.complete(
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
    await this.reports.report(participant, done);
    return this.answerOf(done);
  }

  /** Credential analysis of the ID and a face match of the selfie, in one attempt. */
  async checkId(participant: IdentityParticipant, images: IdImages) {
    this.assertMayTry(participant, 'biometrics');
    // A photo the provider cannot read is the page's to retake, not an attempt of the person's.
    const shortfalls = photoShortfalls(images);
    if (shortfalls.length) throw invalid(`Retake the photo: ${shortfalls.join('; ')}`);
    await this.reports.reportPending(participant);
    const { done, result } = await this.store.holdingAttemptSlot(participant, async (checks, transaction) => {
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
      const opened = await this.store.insertAttempt(
        participant,
        { method: 'biometrics', verificationId, attempt: verdict.attempt },
        undefined,
        transaction,
      );
      await this.idImages.keep(participant.sessionId, opened.id, uploads, transaction);
      const passed = result.document === 'authentic' && result.face === 'match';
      const done = await this.store.complete(
        checks,
        opened,
        { outcome: passed ? 'passed' : 'failed', reasons: result.reasons },
        transaction,
      );
      return { done, result };
    });
    await this.reports.report(participant, done);
    return { ...this.answerOf(done), document: result.document, face: result.face };
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

  private answerOf(check: CheckRow): CheckAnswer {
    return {
      check_id: check.id,
      attempt: check.attempt,
      outcome: check.outcome as CheckAnswer['outcome'],
      ...(check.correct !== null ? { correct: check.correct, total: check.total } : {}),
      reasons: check.reasons,
      locked_until: check.locked_until?.toISOString() ?? null,
      retake_until:
        check.outcome === 'failed' && !check.locked_until ? (this.reports.retakeUntil(check) ?? null) : null,
    };
  }
}
