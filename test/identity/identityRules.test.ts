import assert from 'node:assert/strict';
import type { IdentityPolicy } from '../../src/config';
import {
  judgeAttempt,
  judgeKba,
  lockoutAfterFailure,
  newQuestionsNeeded,
  type PastAttempt,
} from '../../src/proofing/attemptRules';

const HOUR = 3600_000;
const TEXAS: IdentityPolicy = {
  kbaQuestions: 5,
  kbaChoices: 5,
  kbaPassPercent: 80,
  kbaTimeLimitMs: 120_000,
  kbaRetakeNewPercent: 60,
  attempts: 2,
  retakeWindowMs: 24 * HOUR,
  lockoutMs: 24 * HOUR,
};
const T0 = Date.parse('2026-11-23T12:00:00Z');
const failed = (attempt: number, at: number): PastAttempt => ({ attempt, outcome: 'failed', at });

describe('identity rules (pure, Texas defaults)', () => {
  it('KBA passes with 4 of 5 within 2 minutes; 3 of 5, or late answers, fail', () => {
    assert.deepEqual(judgeKba({ correct: 4, total: 5 }, T0, T0 + 119_000, TEXAS), { passed: true });
    assert.deepEqual(judgeKba({ correct: 3, total: 5 }, T0, T0 + 10_000, TEXAS), {
      passed: false,
      reason: '3 of 5 answers were correct; 80 % are needed',
    });
    assert.deepEqual(judgeKba({ correct: 5, total: 5 }, T0, T0 + 121_000, TEXAS), {
      passed: false,
      reason: 'answers came after the 120 s time limit',
    });
  });

  it('a retake must bring at least 60 % new questions: 3 of 5', () => {
    assert.equal(newQuestionsNeeded(TEXAS), 3);
  });

  it('first attempt, one retake within 24 hours, then a 24-hour lockout, then a new round', () => {
    assert.deepEqual(judgeAttempt([], TEXAS, T0), { outcome: 'allowed', attempt: 1, attemptsLeft: 1 });
    const one = [failed(1, T0)];
    assert.deepEqual(judgeAttempt(one, TEXAS, T0 + HOUR), {
      outcome: 'allowed',
      attempt: 2,
      retakeOf: 1,
      attemptsLeft: 0,
    });
    assert.equal(lockoutAfterFailure(one, failed(2, T0 + HOUR), TEXAS), T0 + 25 * HOUR);
    const two = [failed(1, T0), failed(2, T0 + HOUR)];
    assert.deepEqual(judgeAttempt(two, TEXAS, T0 + 2 * HOUR), { outcome: 'locked', until: T0 + 25 * HOUR });
    assert.deepEqual(judgeAttempt(two, TEXAS, T0 + 25 * HOUR), {
      outcome: 'allowed',
      attempt: 3,
      attemptsLeft: 1,
    });
    assert.equal(lockoutAfterFailure(two, failed(3, T0 + 26 * HOUR), TEXAS), undefined, 'a new round');
  });

  it('a retake after the 24-hour window is a first attempt again', () => {
    assert.deepEqual(judgeAttempt([failed(1, T0)], TEXAS, T0 + 25 * HOUR), {
      outcome: 'allowed',
      attempt: 2,
      attemptsLeft: 1,
    });
    assert.equal(lockoutAfterFailure([failed(1, T0)], failed(2, T0 + 25 * HOUR), TEXAS), undefined);
  });

  it('a pass (or a waiver) ends it', () => {
    const passed: PastAttempt = { attempt: 2, outcome: 'passed', at: T0 + HOUR };
    assert.deepEqual(judgeAttempt([failed(1, T0), passed], TEXAS, T0 + 2 * HOUR), { outcome: 'passed' });
    assert.deepEqual(judgeAttempt([{ attempt: 1, outcome: 'skipped', at: T0 }], TEXAS, T0), {
      outcome: 'passed',
    });
  });

  it('the rules are configuration: three attempts before a one-hour lockout', () => {
    const lenient = { ...TEXAS, attempts: 3, lockoutMs: HOUR };
    const two = [failed(1, T0), failed(2, T0 + 60_000)];
    assert.deepEqual(judgeAttempt(two, lenient, T0 + 120_000), {
      outcome: 'allowed',
      attempt: 3,
      retakeOf: 2,
      attemptsLeft: 0,
    });
    assert.equal(lockoutAfterFailure(two, failed(3, T0 + 180_000), lenient), T0 + 180_000 + HOUR);
  });
});
