import type { Sequelize } from 'sequelize';
import type { IdentityPolicy } from '../config';
import { updateSession } from '../temporal/sessionUpdates';
import type { TemporalHandle } from '../temporal/client';
import { execute } from '../db/query';
import { identityOutcomeUpdate, type IdentityOutcome } from '../../core/session/messages';
import type { AttemptStore, CheckRow } from './attemptStore';
import type { IdentityParticipant } from './participant';

/**
 * Each outcome is recorded by the session's workflow (events, the start rule). An outcome the workflow
 * has not recorded yet is sent again on the participant's next identity request, so an outage loses none.
 */
export class OutcomeReports {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly temporal: TemporalHandle,
    private readonly policy: IdentityPolicy,
    private readonly store: AttemptStore,
  ) {}

  /** Outcomes the workflow has not recorded yet (an outage when they were decided). */
  async reportPending(participant: IdentityParticipant): Promise<void> {
    for (const check of await this.store.checksOf(participant.participantId))
      if (check.outcome && check.outcome !== 'skipped' && !check.reported_at)
        await this.report(participant, check);
  }

  async report(participant: IdentityParticipant, check: CheckRow): Promise<void> {
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
    // Whatever the session answers (recorded, already recorded, refused, or ended with nothing left to
    // admit anyone to), there is nothing to send again.
    await updateSession(this.temporal, participant.workflowId, identityOutcomeUpdate, [outcome]);
    await execute(this.sequelize, 'UPDATE identity_checks SET reported_at = now() WHERE id = $1', {
      bind: [check.id],
    });
  }

  retakeUntil(failed: CheckRow): string | undefined {
    if (this.policy.attempts < 2) return undefined;
    return new Date((failed.completed_at ?? new Date()).getTime() + this.policy.retakeWindowMs).toISOString();
  }
}
