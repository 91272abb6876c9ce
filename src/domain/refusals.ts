import { conflict, refused, type DomainError } from './errors';
import type { Refusal } from '../../core/session/messages';
import type { Verdict } from '../../core/session/verdicts';

/** The session machine's refusal as the API's error: forbidden (403) or not now (409, maybe Retry-After). */
export function errorOfRefusal(refusal: Refusal): DomainError {
  return refusal.kind === 'forbidden'
    ? refused(refusal.reason)
    : conflict(refusal.reason, refusal.retryAfterSeconds);
}

/** Throws what a refused verdict means; `allowed` and `already_done` pass. */
export function throwIfRefused(verdict: Verdict): void {
  if (verdict.outcome === 'refused') throw errorOfRefusal(verdict.refusal);
}
