import type { Sequelize } from 'sequelize';
import { queryRows } from '../db/query';
import { networkCommissionDates } from './commissionHorizon';
import { notaryMayBeOfferedSql } from './offerEligibility';
import { commissionInForceSql } from '../team/jurisdictionTime';
import { stillInNetworkSql } from '../auth/people';
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

/** One session of the queue, as the operator follows it up. */
export interface QueuedSession {
  bn_session_id: string;
  account: { id: string; name: string };
  /** The state whose commission it asks for; null for any. */
  state: string | null;
  waiting_since: Date;
  /** The notary it is offered to now, until when. */
  open_offer: { notary_email: string; expires_at: Date } | null;
  /** Network notaries whose commission may take it (in force for 24 hours, in its state), free or not. */
  commissioned_notaries: number;
}

/**
 * The sessions waiting for a network notary (of one state, or all), longest first: whom each is offered to,
 * and whether the network has anyone who may take it at all.
 */
export async function queuedSessions(
  sequelize: Sequelize,
  { state, limit }: { state?: string; limit: number },
): Promise<QueuedSession[]> {
  const rows = await queryRows<
    Omit<QueuedSession, 'open_offer'> & { offered_to: string | null; offer_expires_at: Date | null }
  >(
    sequelize,
    `SELECT s.id AS bn_session_id, json_build_object('id', a.id, 'name', a.name) AS account,
            s.plan -> 'notary' ->> 'state' AS state, s.notary_sought_since AS waiting_since,
            n.email AS offered_to, o.expires_at AS offer_expires_at,
            (SELECT count(*)::int FROM network_notaries c
              WHERE ${commissionInForceSql('c', '$3')} AND ${stillInNetworkSql('c')}
                AND (s.plan -> 'notary' ->> 'state' IS NULL OR c.state = s.plan -> 'notary' ->> 'state'))
              AS commissioned_notaries
       FROM sessions s JOIN accounts a ON a.id = s.account_id
       LEFT JOIN notary_offers o ON o.session_id = s.id AND o.outcome = 'open'
       LEFT JOIN network_notaries n ON n.id = o.notary_id
      WHERE ${waitingForANotarySql('s')} AND ($1::text IS NULL OR s.plan -> 'notary' ->> 'state' = $1)
      ORDER BY s.notary_sought_since, s.id
      LIMIT $2`,
    { bind: [state ?? null, limit, networkCommissionDates(Date.now())] },
  );
  return rows.map(({ offered_to, offer_expires_at, ...session }) => ({
    ...session,
    open_offer: offered_to ? { notary_email: offered_to, expires_at: offer_expires_at! } : null,
  }));
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
