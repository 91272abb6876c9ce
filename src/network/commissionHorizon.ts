import { commissionEndsAt, commissionInForce, jurisdictionDates } from '../team/jurisdictionTime';
import { queryRows } from '../db/query';
import type { Sequelize } from 'sequelize';

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

/** A network notary's commission on file: state, number and expiry (YYYY-MM-DD). */
export async function networkNotaryCommission(sequelize: Sequelize, notaryId: string) {
  const [notary] = await queryRows<{
    state: string;
    commission_number: string;
    commission_expires_on: string;
  }>(
    sequelize,
    `SELECT state, commission_number, to_char(commission_expires_on, 'YYYY-MM-DD') AS commission_expires_on
       FROM network_notaries WHERE id = $1`,
    { bind: [notaryId] },
  );
  return notary;
}

/**
 * A network notary's commission as their console shows it: the facts on file, the instant it ends in its
 * jurisdiction, and whether the network offers them sessions at `now` by the rule above.
 */
export async function networkCommissionStanding(sequelize: Sequelize, notaryId: string, now: number) {
  const commission = await networkNotaryCommission(sequelize, notaryId);
  const { state, commission_expires_on: expiresOn } = commission;
  return {
    ...commission,
    ends_at: new Date(commissionEndsAt(state, expiresOn)).toISOString(),
    receives_offers: commissionInForce(state, expiresOn, now + NETWORK_COMMISSION_HORIZON_MS),
  };
}
