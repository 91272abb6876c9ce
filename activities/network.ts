import type { ActivityDependencies } from './dependencies';
import { tellSessionsNotaryIsFree } from './freedNotaries';
import { execute, queryRows } from '../src/db/query';
import { inTransaction } from '../src/db/transaction';
import { NETWORK_NOTARY_NAME } from '../src/db/sessionNotary';
import { networkCommissionDates } from '../src/network/commissionHorizon';
import { notaryMayBeOfferedSql } from '../src/network/offerEligibility';
import { sessionEndedSql } from '../core/session/statusSql';
import { stillInNetworkSql } from '../src/auth/people';
import { BEFORE_THE_ACT } from '../core/session/statuses';
import type { NetworkWitness, SessionStatus } from '../core/session/messages';

export interface NotaryOffer {
  offerId: string;
  notaryId: string;
  email: string;
  name: string;
}

export interface OfferAttempt {
  /** Null when no eligible notary is free: ask again after `retryAfterMs`. */
  offer: NotaryOffer | null;
  retryAfterMs: number;
  /** How long the offer stays open, and how long the notary then has to start (configuration). */
  offerTimeoutMs: number;
  startTimeoutMs: number;
}

/** The session's places for network witnesses as they stand, and how many are still open. */
export interface NetworkWitnessStaffing {
  witnesses: NetworkWitness[];
  missing: number;
  retryAfterMs: number;
}

/**
 * The on-demand network's bookkeeping: offers to notaries and the assignment of network witnesses.
 * The workflow decides when; each activity is one transaction whose retry finds its own earlier work.
 */
export function networkActivities(deps: ActivityDependencies) {
  const { sequelize, config } = deps;
  return {
    /**
     * Offers the session to one eligible network notary: a commission in force for the next 24 hours
     * (`src/network/commissionHorizon`), in the requested state, no open offer and no live session.
     * Notaries this session has asked least, and then those offered anything longest ago, come first, so
     * an unanswered offer moves on to the next notary; one who declined it is not asked again. Row locks
     * with SKIP LOCKED and the one-open-offer-per-notary index keep two sessions off the same notary. The
     * session's first attempt is kept (`notary_sought_since`): a notary who becomes free is told of it.
     */
    async offerToNetworkNotary({
      sessionId,
      state,
    }: {
      sessionId: string;
      state?: string;
    }): Promise<OfferAttempt> {
      const timing = {
        retryAfterMs: config.notaryRetryIntervalMs,
        offerTimeoutMs: config.notaryOfferTimeoutMs,
        startTimeoutMs: config.notaryStartTimeoutMs,
      };
      const offer = await inTransaction(sequelize, async (transaction) => {
        const [open] = await queryRows<NotaryOffer>(
          sequelize,
          `WITH sought AS (UPDATE sessions SET notary_sought_since = now()
                            WHERE id = $1 AND notary_sought_since IS NULL)
           SELECT o.id AS "offerId", n.id AS "notaryId", n.email, ${NETWORK_NOTARY_NAME} AS name
             FROM notary_offers o JOIN network_notaries n ON n.id = o.notary_id
            WHERE o.session_id = $1 AND o.outcome = 'open'`,
          { bind: [sessionId], transaction },
        );
        if (open) return open;
        const [candidate] = await queryRows<{ id: string; email: string; name: string }>(
          sequelize,
          `SELECT n.id, n.email, ${NETWORK_NOTARY_NAME} AS name FROM network_notaries n
            WHERE ${notaryMayBeOfferedSql('n', '$1', '$2::text', '$3')}
            ORDER BY (SELECT count(*) FROM notary_offers o WHERE o.notary_id = n.id AND o.session_id = $1),
                     (SELECT max(o.offered_at) FROM notary_offers o WHERE o.notary_id = n.id) NULLS FIRST,
                     n.created_at, n.id
            LIMIT 1
            FOR UPDATE OF n SKIP LOCKED`,
          { bind: [sessionId, state ?? null, networkCommissionDates(Date.now())], transaction },
        );
        if (!candidate) return null;
        const [created] = await queryRows<{ id: string }>(
          sequelize,
          `INSERT INTO notary_offers (session_id, notary_id, expires_at)
             VALUES ($1, $2, now() + make_interval(secs => $3)) RETURNING id`,
          { bind: [sessionId, candidate.id, config.notaryOfferTimeoutMs / 1000], transaction },
        );
        return { offerId: created.id, notaryId: candidate.id, email: candidate.email, name: candidate.name };
      });
      return { offer, ...timing };
    },

    /**
     * The offer ends unanswered (`expired`), passed on (`declined`) or because the session ended or the
     * notary left (`withdrawn`); the sessions waiting longest are told the notary is free.
     */
    async closeOffer({
      offerId,
      outcome,
    }: {
      offerId: string;
      outcome: 'expired' | 'declined' | 'withdrawn';
    }): Promise<void> {
      await execute(
        sequelize,
        `UPDATE notary_offers SET outcome = $2, decided_at = now() WHERE id = $1 AND outcome = 'open'`,
        { bind: [offerId, outcome] },
      );
      await tellSessionsNotaryIsFree(deps, { offerId });
    },
  };
}

/** An accepted offer makes the notary the session's; one who does not start is let go. */
export function networkAcceptanceActivities(deps: ActivityDependencies) {
  const { sequelize } = deps;
  return {
    /** The notary who accepted becomes the session's notary, in one transaction with the offer's outcome. */
    async acceptOffer({ offerId, sessionId }: { offerId: string; sessionId: string }): Promise<void> {
      await inTransaction(sequelize, async (transaction) => {
        await execute(
          sequelize,
          `UPDATE notary_offers SET outcome = 'accepted', decided_at = coalesce(decided_at, now())
            WHERE id = $1 AND outcome IN ('open', 'accepted')`,
          { bind: [offerId], transaction },
        );
        await execute(
          sequelize,
          `UPDATE sessions SET network_notary_id = o.notary_id, updated_at = now()
             FROM notary_offers o WHERE o.id = $1 AND sessions.id = $2`,
          { bind: [offerId, sessionId], transaction },
        );
      });
    },

    /** A notary who accepted and did not start: the session lets them go and goes back to the queue. */
    async releaseNetworkNotary({
      offerId,
      sessionId,
    }: {
      offerId: string;
      sessionId: string;
    }): Promise<void> {
      await inTransaction(sequelize, async (transaction) => {
        await execute(
          sequelize,
          `UPDATE notary_offers SET outcome = 'released', decided_at = now()
            WHERE id = $1 AND outcome = 'accepted'`,
          { bind: [offerId], transaction },
        );
        await execute(
          sequelize,
          `UPDATE sessions SET network_notary_id = NULL, updated_at = now()
            WHERE id = $1 AND network_notary_id = (SELECT notary_id FROM notary_offers WHERE id = $2)`,
          { bind: [sessionId, offerId], transaction },
        );
      });
      await tellSessionsNotaryIsFree(deps, { offerId });
    },
  };
}

/** Network witnesses for the session's places. */
export function networkWitnessActivities({ sequelize, config }: ActivityDependencies) {
  return {
    /**
     * Fills the session's places for network witnesses (after the invited witnesses') with witnesses in no
     * other live session. Before the act begins, the place of one who has left the network is emptied
     * first (their identity checks and consent with it) and filled again. Answers who holds the places
     * now, so a retry finds its own earlier work.
     */
    async assignNetworkWitnesses({
      sessionId,
      count,
    }: {
      sessionId: string;
      count: number;
    }): Promise<NetworkWitnessStaffing> {
      const witnesses = await inTransaction(sequelize, async (transaction) => {
        // One assignment at a time per session: the row lock orders two attempts of this activity (NO
        // KEY UPDATE, like the audit chain's, so an API transaction adding documents does not stop it).
        const [{ status }] = await queryRows<{ status: SessionStatus }>(
          sequelize,
          'SELECT status FROM sessions WHERE id = $1 FOR NO KEY UPDATE',
          { bind: [sessionId], transaction },
        );
        if (BEFORE_THE_ACT.includes(status)) {
          await execute(
            sequelize,
            `DELETE FROM participants p USING network_witnesses w
              WHERE p.session_id = $1 AND w.id = p.network_witness_id AND NOT ${stillInNetworkSql('w')}`,
            { bind: [sessionId], transaction },
          );
          await execute(sequelize, FILL_OPEN_PLACES, { bind: [sessionId, count], transaction });
        }
        return queryRows<NetworkWitness>(
          sequelize,
          `SELECT index, email, first_name || ' ' || last_name AS name FROM participants
            WHERE session_id = $1 AND network_witness_id IS NOT NULL ORDER BY index`,
          { bind: [sessionId], transaction },
        );
      });
      return {
        witnesses,
        missing: Math.max(0, count - witnesses.length),
        retryAfterMs: config.notaryRetryIntervalMs,
      };
    },
  };
}

/** The open places ($2 of them after the invited witnesses'), each to the longest-standing free witness. */
const FILL_OPEN_PLACES = `
  WITH invited AS (
    SELECT count(*)::int AS n FROM participants
     WHERE session_id = $1 AND role = 'witness' AND network_witness_id IS NULL
  ), places AS (
    SELECT place, row_number() OVER (ORDER BY place) AS n
      FROM invited, generate_series(invited.n, invited.n + $2 - 1) AS place
     WHERE NOT EXISTS (SELECT 1 FROM participants p
                        WHERE p.session_id = $1 AND p.role = 'witness' AND p.index = place)
  ), locked AS (
    SELECT w.* FROM network_witnesses w
     WHERE ${stillInNetworkSql('w')}
       AND NOT EXISTS (SELECT 1 FROM participants p JOIN sessions s ON s.id = p.session_id
                        WHERE p.network_witness_id = w.id AND NOT ${sessionEndedSql('s')})
     ORDER BY w.created_at, w.id
     LIMIT (SELECT count(*) FROM places)
     FOR UPDATE OF w SKIP LOCKED
  ), free AS (
    SELECT locked.*, row_number() OVER (ORDER BY created_at, id) AS n FROM locked
  )
  INSERT INTO participants (session_id, role, index, email, first_name, last_name, network_witness_id)
  SELECT $1, 'witness', places.place, free.email, free.first_name, free.last_name, free.id
    FROM places JOIN free ON free.n = places.n`;
