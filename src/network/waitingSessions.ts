import type { Sequelize } from 'sequelize';
import { queryRows } from '../db/query';
import { networkCommissionDates } from './commissionHorizon';
import { notaryMayBeOfferedSql } from './offerEligibility';
import type { TemporalHandle } from '../temporal/client';
import { tellSession } from '../sessions/networkDepartures';
import { networkNotaryFreeSignal } from '../../core/session/messages';

/** Sessions told of one notary at once: a few more than one, as the first may take another notary. */
const TOLD_AT_ONCE = 5;

/**
 * SQL: the session aliased `s` is on-demand, its signer waits (it has asked the network), and it has no
 * notary yet (one that has just accepted is not recorded ready yet).
 */
const waitingForANotarySql = (s: string) =>
  `${s}.status = 'awaiting_notary' AND ${s}.notary_sought_since IS NOT NULL AND ${s}.network_notary_id IS NULL
   AND ${s}.plan -> 'notary' ->> 'kind' = 'network'`;

/** The sessions waiting for a network notary, by the state they ask for (`any` without one). */
export interface NotaryQueue {
  state: string;
  sessions: number;
  longest_wait_seconds: number;
}

export function notaryQueue(sequelize: Sequelize): Promise<NotaryQueue[]> {
  return queryRows<NotaryQueue>(
    sequelize,
    `SELECT coalesce(s.plan -> 'notary' ->> 'state', 'any') AS state, count(*)::int AS sessions,
            extract(epoch FROM now() - min(s.notary_sought_since))::float8 AS longest_wait_seconds
       FROM sessions s WHERE ${waitingForANotarySql('s')}
      GROUP BY 1 ORDER BY 1`,
  );
}

export interface WaitingSession {
  bn_session_id: string;
  workflow_id: string;
}

/**
 * The sessions that have waited longest for a notary, hold no offer, and may be offered this one (the
 * notary's, or the one of an offer made to them): those to tell when the notary may have become free.
 */
export function sessionsWaitingForNotary(
  sequelize: Sequelize,
  notary: { notaryId: string } | { offerId: string },
): Promise<WaitingSession[]> {
  const notaryIs =
    'notaryId' in notary ? 'n.id = $1' : 'n.id = (SELECT notary_id FROM notary_offers WHERE id = $1)';
  return queryRows<WaitingSession>(
    sequelize,
    `SELECT s.id AS bn_session_id, s.workflow_id FROM sessions s JOIN network_notaries n ON ${notaryIs}
      WHERE ${waitingForANotarySql('s')}
        AND NOT EXISTS (SELECT 1 FROM notary_offers o WHERE o.session_id = s.id AND o.outcome = 'open')
        AND ${notaryMayBeOfferedSql('n', 's.id', "(s.plan -> 'notary' ->> 'state')", '$2')}
      ORDER BY s.notary_sought_since, s.id
      LIMIT ${TOLD_AT_ONCE}`,
    { bind: ['notaryId' in notary ? notary.notaryId : notary.offerId, networkCommissionDates(Date.now())] },
  );
}

/**
 * A notary an operator made available (added, or their commission renewed): the sessions waiting for one
 * that may be offered them ask at once. Answers the sessions told.
 */
export async function tellSessionsOfAvailableNotary(
  sequelize: Sequelize,
  temporal: TemporalHandle,
  notaryId: string,
): Promise<string[]> {
  const waiting = await sessionsWaitingForNotary(sequelize, { notaryId });
  for (const { workflow_id } of waiting)
    await tellSession(temporal, workflow_id, networkNotaryFreeSignal, []);
  return waiting.map((session) => session.bn_session_id);
}
