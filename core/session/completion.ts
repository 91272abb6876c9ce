/** The notarial act's own conditions, judged when the notary completes the session. */
import {
  commissionLapse,
  commissionOfRequest,
  commissionOutsideRequest,
  type CommissionOnFile,
} from './commission';
import { judgeRequest, type SessionState } from './machine';
import type { CompleteRequest } from './messages';
import type { SessionPlan } from './plan';
import { notarySignatureRefusal } from './signing';
import { ALLOWED, refuse, type Verdict } from './verdicts';

/**
 * A completion is the notarial act: the certificate states its time. Allowed by `judgeRequest` and with
 * the commission in force at `now`, the workflow's time of the act, and issued where the session asked;
 * a live act once its notary has adopted the signature its documents will carry.
 */
export function judgeCompletion(
  state: SessionState,
  plan: SessionPlan,
  commission: CommissionOnFile,
  now: number,
  notaryAdoptedSignature: boolean,
): Verdict {
  const verdict = judgeRequest(state, plan, 'complete', now);
  if (verdict.outcome !== 'allowed') return verdict;
  const lapse = commissionLapse(commission, now) ?? commissionOutsideRequest(plan, commission);
  if (lapse) return refuse('not_now', `Session cannot be completed: ${lapse}`);
  const unsigned = notarySignatureRefusal(plan.testMode, notaryAdoptedSignature);
  return unsigned ? refuse('not_now', unsigned) : ALLOWED;
}

/** A completion as the API sends it: the commission and the notary (with their signature) as it read them. */
export const judgeCompletionRequest = (
  state: SessionState,
  plan: SessionPlan,
  request: CompleteRequest,
  now: number,
): Verdict =>
  judgeCompletion(state, plan, commissionOfRequest(request), now, Boolean(request.notary?.signature_id));
