/**
 * Contract §8: in a live act, the notary identifies a signer while seeing them, and a signature is applied
 * while its signer and the notary are on camera. A test-mode act has no room: these rules do not apply.
 */
import { judgeIdentityOutcome, type SessionState, type Verdict } from './machine';
import type { MediaIdentity } from './media';
import type { IdentityOutcome, ParticipantKey } from './messages';
import type { SessionPlan } from './plan';

export const NOTARY_AWAY = 'Signing waits until the notary is back in the room';
export const SIGNER_OFF_CAMERA = 'Turn on your camera and microphone to sign';
export const NOTARY_NOT_IN_ROOM = 'Enter the live room first: a signer is identified on camera';

const refuse = (reason: string): Verdict => ({ outcome: 'refused', refusal: { kind: 'not_now', reason } });

/** The camera a participant is seen on: their own, or in same-device signing the host's. */
export function cameraOf(plan: SessionPlan, who: ParticipantKey): MediaIdentity {
  if (who.role === 'signer' && plan.sameDeviceHost !== undefined) return `signer-${plan.sameDeviceHost}`;
  return `${who.role}-${who.index}`;
}

const seen = (state: SessionState, identity: MediaIdentity) => (state.onCamera ?? []).includes(identity);

/** Why a signer's applications wait now, with `onCamera` on camera: undefined when they may go on. */
export function signingPause(
  onCamera: readonly MediaIdentity[],
  plan: SessionPlan,
  who: ParticipantKey,
): string | undefined {
  if (plan.testMode) return undefined;
  if (!onCamera.includes('notary')) return NOTARY_AWAY;
  return onCamera.includes(cameraOf(plan, who)) ? undefined : SIGNER_OFF_CAMERA;
}

/** A signature application: its signer and the notary on camera. */
export function signaturePresenceRefusal(
  state: SessionState,
  plan: SessionPlan,
  who: ParticipantKey,
): Verdict | undefined {
  const pause = signingPause(state.onCamera ?? [], plan, who);
  return pause === undefined ? undefined : refuse(pause);
}

/** The notary's identification of a signer: the notary in the room, and the signer on camera. */
export function judgeIdentificationPresence(
  state: SessionState,
  plan: SessionPlan,
  who: ParticipantKey,
): Verdict {
  if (plan.testMode) return { outcome: 'allowed' };
  if (!seen(state, 'notary')) return refuse(NOTARY_NOT_IN_ROOM);
  return seen(state, cameraOf(plan, who))
    ? { outcome: 'allowed' }
    : refuse(`Signer ${who.index + 1} is not on camera: identify them once you see and hear them`);
}

/** An identity outcome reported to the session: the notary's own identification also needs them both seen. */
export function judgeIdentityReport(
  state: SessionState,
  plan: SessionPlan,
  check: IdentityOutcome,
  alreadyRecorded: boolean,
): Verdict {
  const verdict = judgeIdentityOutcome(state, alreadyRecorded);
  if (verdict.outcome !== 'allowed' || check.method !== 'notary') return verdict;
  return judgeIdentificationPresence(state, plan, check);
}
