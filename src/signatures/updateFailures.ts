import { WorkflowNotFoundError } from '@temporalio/common';
import { conflict, DomainError, unavailable, UNAVAILABLE_MESSAGE } from '../domain/errors';
import { isUnavailable } from '../infra/unavailable';
import { throwIfRefused, verdictOfUpdateFailure } from '../sessions/sessionRules';

/**
 * What a failed update of the session's workflow means to the caller: the validator's refusal, a closed
 * session, an unreachable Temporal; an update already applied (a retry) passes.
 */
export function answerUpdateFailure(err: unknown): void {
  const verdict = verdictOfUpdateFailure(err);
  if (verdict) throwIfRefused(verdict);
  else if (err instanceof DomainError) throw err;
  else if (err instanceof WorkflowNotFoundError) throw conflict('Session has ended');
  else if (isUnavailable(err)) throw unavailable(UNAVAILABLE_MESSAGE);
  else throw err;
}
