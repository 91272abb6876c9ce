/** The session's rules for the signers' part of the act: who applies where, and when places may change. */
import { identityEstablished, type SessionState } from './machine';
import type { SessionPlan } from './plan';
import { signaturePresenceRefusal } from './presence';
import { OPENING_DOCUMENTS, placeKeyOf, signerOfKey, type SignerKey } from './signing';
import { judgePlacesWindow } from './statuses';

import { ALLOWED, refuse, type Verdict } from './verdicts';

/**
 * A participant's application of their signature or initials at a place: in the act, once their identity
 * is established, at their own place.
 */
export function judgeSignature(
  state: SessionState,
  plan: SessionPlan,
  who: SignerKey,
  placeKey: string,
): Verdict {
  if (state.status !== 'in_progress')
    return refuse(
      'not_now',
      `Signatures are applied only while the session is in progress: it is ${state.status}`,
    );
  const key = signerOfKey(who);
  if (!identityEstablished(state, plan, key))
    return refuse('not_now', 'Verify your identity before you sign');
  if (awaitsTheNotary(state, plan, key))
    return refuse('not_now', 'Your notary confirms who you are in the session before you sign');
  const unseen = signaturePresenceRefusal(state, plan, key);
  if (unseen) return unseen;
  if (!state.signing) return refuse('not_now', OPENING_DOCUMENTS, 1);
  const place = state.signing.places.find((p) => placeKeyOf(p) === placeKey);
  if (!place || place.participant !== who) return refuse('forbidden', 'This place is not yours to sign');
  return state.signing.applied.includes(placeKey) ? { outcome: 'already_done' } : ALLOWED;
}

const same = (a: { role: string; index: number }) => (b: { role: string; index: number }) =>
  a.role === b.role && a.index === b.index;

/** Whether a live act's signer still waits for the notary to identify them in the session. */
export function awaitsTheNotary(
  state: SessionState,
  plan: SessionPlan,
  who: { role: 'signer' | 'witness'; index: number },
): boolean {
  return (plan.notaryIdentifies ?? []).some(same(who)) && !state.verified.some(same(who));
}

/** The notary's change of places: before the act ends, and never of a place already signed. */
export function judgePlacesChange(state: SessionState, touched: readonly string[]): Verdict {
  const window = judgePlacesWindow(state.status);
  if (window.outcome === 'refused') return window;
  return touched.some((key) => state.signing?.applied.includes(key))
    ? refuse('not_now', 'A place already signed cannot be moved or removed')
    : ALLOWED;
}
