import { sessionEndedSql } from '../../core/session/statusSql';

/**
 * Whether the network notary aliased `alias` is free, in SQL: no unfinished session and no open offer.
 * Offers, the assignment of workflows from before offers, and a change of the notary's state all ask
 * this one question, so a notary is never given two sessions at once nor moved under one.
 */
export const networkNotaryIsFreeSql = (alias: string) =>
  `(NOT EXISTS (SELECT 1 FROM sessions busy WHERE busy.network_notary_id = ${alias}.id AND NOT ${sessionEndedSql('busy')})
    AND NOT EXISTS (SELECT 1 FROM notary_offers held WHERE held.notary_id = ${alias}.id AND held.outcome = 'open'))`;
