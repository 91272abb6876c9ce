import type { CompleteRequest } from './messages';
import type { SessionPlan } from './plan';

/** A notary's commission as the act judges it: in force at the act's time, of the state asked for. */
/**
 * A notary's commission as the API read it for an action: its expiry on file (YYYY-MM-DD, null: none) and
 * the instant it ends, at the close of that day in its jurisdiction's own time (`src/team/jurisdictionTime`).
 * A completion sent by an API from before `endsAt` carries none; its commission ends with UTC's day.
 */
export interface CommissionOnFile {
  expiresOn: string | null;
  endsAt?: number;
  /** The jurisdiction that issued it (two-letter code), when known: a completion from an older API lacks it. */
  state?: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function commissionOfRequest(request: CompleteRequest): CommissionOnFile {
  return {
    expiresOn: request.commissionExpiresOn,
    ...(request.commissionEndsAt ? { endsAt: Date.parse(request.commissionEndsAt) } : {}),
    ...(request.notary?.state ? { state: request.notary.state } : {}),
  };
}

/**
 * Why a notary with this commission may not act at `at` (epoch ms), or undefined when they may: the
 * commission must be on file and not yet ended.
 */
export function commissionLapse(commission: CommissionOnFile, at: number): string | undefined {
  const { expiresOn } = commission;
  if (!expiresOn) return "the notary's commission is not on file (onboarding is pending)";
  const endsAt = commission.endsAt ?? Date.parse(`${expiresOn}T00:00:00Z`) + DAY_MS;
  return at < endsAt ? undefined : `the notary's commission expired on ${expiresOn}`;
}

/**
 * Why a notary with this commission may not act for this session, or undefined when they may: a session that
 * asked for a notary of one state (`state_specific_notary`) is notarized under that state's commission only.
 * A named team notary of another state is refused at creation, the network offers it to no one else, and
 * the admin CLI changes no network notary's state while they hold a session or an offer; this holds the act
 * to the request whatever the records came to say (a team notary records their own renewal).
 */
export function commissionOutsideRequest(
  plan: SessionPlan,
  commission: CommissionOnFile,
): string | undefined {
  const asked = plan.notary.state;
  if (!asked || !commission.state || commission.state === asked) return undefined;
  return `the session asks for a notary commissioned in ${asked}, and the notary's commission is from ${commission.state}`;
}
