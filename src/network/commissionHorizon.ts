import { jurisdictionDates } from '../team/jurisdictionTime';

const HOUR_MS = 60 * 60 * 1000;

/**
 * The network offers a session only to a notary whose commission stays in force for this long. Nothing
 * bounds how long a session runs before its act, and a session taken in a commission's last hours could
 * not be completed once it ended: the completion would be refused and the integrator left to cancel it.
 */
export const NETWORK_COMMISSION_HORIZON_MS = 24 * HOUR_MS;

/**
 * The bind parameter `commissionInForceSql` takes for the network's choice at `now`: every jurisdiction's
 * date at the horizon. A commission in force then is in force from now until then.
 */
export function networkCommissionDates(now: number): string {
  return JSON.stringify(jurisdictionDates(now + NETWORK_COMMISSION_HORIZON_MS));
}
