/** The answer of every rule of the session: go ahead, already done (a retry), or refused with a reason. */
import type { Refusal } from './messages';

export type Verdict =
  | { outcome: 'allowed' }
  /** The session is already where the request leads: a retry of a request whose answer was lost. */
  | { outcome: 'already_done' }
  | { outcome: 'refused'; refusal: Refusal };

export const ALLOWED: Verdict = { outcome: 'allowed' };
export const ALREADY_DONE: Verdict = { outcome: 'already_done' };
export const refuse = (kind: Refusal['kind'], reason: string, retryAfterSeconds?: number): Verdict => ({
  outcome: 'refused',
  refusal: { kind, reason, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) },
});
