import { commissionInForceSql } from '../team/jurisdictionTime';
import { stillInNetworkSql } from '../auth/people';
import { networkNotaryIsFreeSql } from '../team/notaryAvailability';

/**
 * SQL: the network notary aliased `notary` may be offered the session whose id is `session` and that asks
 * for `state` (SQL expressions; a NULL state takes any): a commission in force over the next 24 hours
 * where they are commissioned (`dates`: `networkCommissionDates`), still in the network, free, and not
 * one who declined this session.
 */
export const notaryMayBeOfferedSql = (notary: string, session: string, state: string, dates: string) =>
  `${commissionInForceSql(notary, dates)}
   AND ${stillInNetworkSql(notary)}
   AND (${state} IS NULL OR ${notary}.state = ${state})
   AND ${networkNotaryIsFreeSql(notary)}
   AND NOT EXISTS (SELECT 1 FROM notary_offers declined
                    WHERE declined.session_id = ${session} AND declined.notary_id = ${notary}.id
                      AND declined.outcome = 'declined')`;
