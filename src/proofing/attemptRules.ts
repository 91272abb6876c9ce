/**
 * The rules of identity proofing attempts, pure and clock-free: whether a participant may try now (first
 * attempt, retake, or locked out), and whether a KBA attempt passed. The defaults are Texas's (see
 * IdentityPolicy); callers pass the attempts so far and the time.
 */
import type { IdentityPolicy } from '../config';

export interface PastAttempt {
  attempt: number;
  outcome: 'passed' | 'failed' | 'skipped' | null;
  /** When it ended (or, for one still open, when it started). */
  at: number;
}

export type AttemptVerdict =
  | { outcome: 'passed' }
  | { outcome: 'locked'; until: number }
  /** `retakeOf`: the attempt number this one retakes, whose questions it must mostly avoid. */
  | { outcome: 'allowed'; attempt: number; retakeOf?: number; attemptsLeft: number };

/**
 * Failures come in rounds: a first attempt and up to `attempts - 1` retakes within `retakeWindowMs` of
 * the round's first failure. A round that fails every attempt locks the participant out for `lockoutMs`
 * from its last failure; after that (or after the window), a new round begins.
 */
export function judgeAttempt(
  past: readonly PastAttempt[],
  policy: IdentityPolicy,
  now: number,
): AttemptVerdict {
  if (past.some((a) => a.outcome === 'passed' || a.outcome === 'skipped')) return { outcome: 'passed' };
  const round = currentRound(past, policy);
  if (round.lockedUntil !== undefined && now < round.lockedUntil)
    return { outcome: 'locked', until: round.lockedUntil };
  const next = (past.at(-1)?.attempt ?? 0) + 1;
  const inRound = round.failures.length > 0 && now - round.failures[0].at <= policy.retakeWindowMs;
  if (!inRound) return { outcome: 'allowed', attempt: next, attemptsLeft: policy.attempts - 1 };
  return {
    outcome: 'allowed',
    attempt: next,
    retakeOf: round.failures.at(-1)!.attempt,
    attemptsLeft: policy.attempts - round.failures.length - 1,
  };
}

/** What a failure at `at` leads to: a lockout when it was the round's last allowed attempt. */
export function lockoutAfterFailure(
  past: readonly PastAttempt[],
  failed: PastAttempt,
  policy: IdentityPolicy,
): number | undefined {
  return currentRound([...past.filter((a) => a.attempt !== failed.attempt), failed], policy).lockedUntil;
}

function currentRound(past: readonly PastAttempt[], policy: IdentityPolicy) {
  let failures: PastAttempt[] = [];
  let lockedUntil: number | undefined;
  for (const attempt of past) {
    if (attempt.outcome !== 'failed') continue;
    const startsRound =
      failures.length === 0 ||
      attempt.at - failures[0].at > policy.retakeWindowMs ||
      (lockedUntil !== undefined && attempt.at >= lockedUntil);
    if (startsRound) {
      failures = [];
      lockedUntil = undefined;
    }
    failures.push(attempt);
    if (failures.length >= policy.attempts) lockedUntil = attempt.at + policy.lockoutMs;
  }
  return { failures: lockedUntil === undefined ? failures : [], lockedUntil };
}

export interface KbaScore {
  correct: number;
  total: number;
}

/** A KBA attempt passes with at least the pass mark, answered within the time limit. */
export function judgeKba(
  score: KbaScore,
  startedAt: number,
  submittedAt: number,
  policy: IdentityPolicy,
): { passed: boolean; reason?: string } {
  if (submittedAt - startedAt > policy.kbaTimeLimitMs)
    return { passed: false, reason: `answers came after the ${policy.kbaTimeLimitMs / 1000} s time limit` };
  if (score.correct * 100 < policy.kbaPassPercent * score.total)
    return {
      passed: false,
      reason: `${score.correct} of ${score.total} answers were correct; ${policy.kbaPassPercent} % are needed`,
    };
  return { passed: true };
}

/** How many questions a retake must take from outside the attempt it retakes. */
export function newQuestionsNeeded(policy: IdentityPolicy): number {
  return Math.ceil((policy.kbaQuestions * policy.kbaRetakeNewPercent) / 100);
}
