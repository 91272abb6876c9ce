import type { Sequelize } from 'sequelize';
import type { SessionRow } from '../../core/session/rows';
import { sessionRowWhere } from './sessionReads';

/** A session a network notary was offered or accepted; any other is "not found" to them. */
export function offeredOrAssignedSession(
  sequelize: Sequelize,
  notaryId: string,
  sessionId: string,
): Promise<SessionRow> {
  return sessionRowWhere(
    sequelize,
    sessionId,
    `s.network_notary_id = $2
     OR EXISTS (SELECT 1 FROM notary_offers o WHERE o.session_id = s.id AND o.notary_id = $2)`,
    notaryId,
  );
}

/**
 * A session a network notary is the notary of now; any other, one whose offer lapsed or that went back to
 * the queue among them, is "not found" to them, so an action cannot confirm that a session exists.
 */
export function assignedNetworkSession(
  sequelize: Sequelize,
  notaryId: string,
  sessionId: string,
): Promise<SessionRow> {
  return sessionRowWhere(sequelize, sessionId, 's.network_notary_id = $2', notaryId);
}
