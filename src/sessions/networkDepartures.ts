import type { Sequelize } from 'sequelize';
import { WorkflowNotFoundError, type SignalDefinition } from '@temporalio/common';
import { queryRows } from '../db/query';
import { stillInNetworkSql } from '../auth/people';
import { TEMPORAL_DEADLINE_MS, type TemporalHandle } from '../temporal/client';
import { SESSION_UNREACHABLE } from '../temporal/sessionUpdates';
import { isUnavailable } from '../outages';
import { unavailable } from '../domain/errors';
import { networkNotaryLeftSignal, networkWitnessLeftSignal } from '../../core/session/messages';
import { BEFORE_THE_ACT } from '../../core/session/statuses';

export interface WitnessWhoLeft {
  bn_session_id: string;
  email: string;
}

/**
 * Network witnesses who left the network while holding a place in a session whose act has not begun (the
 * one witness's, or the one session's): each such session is told, and staffs the place again.
 */
export async function replaceWitnessesWhoLeft(
  sequelize: Sequelize,
  temporal: TemporalHandle,
  of: { witnessId: string } | { sessionId: string },
): Promise<WitnessWhoLeft[]> {
  const rows = await queryRows<WitnessWhoLeft & { workflow_id: string }>(
    sequelize,
    `SELECT s.id AS bn_session_id, s.workflow_id, p.email FROM participants p
       JOIN network_witnesses w ON w.id = p.network_witness_id
       JOIN sessions s ON s.id = p.session_id
      WHERE ${'witnessId' in of ? 'w.id' : 's.id'} = $1 AND NOT ${stillInNetworkSql('w')}
        AND s.status = ANY($2)
      ORDER BY s.created_at, p.index`,
    { bind: ['witnessId' in of ? of.witnessId : of.sessionId, BEFORE_THE_ACT] },
  );
  for (const workflowId of new Set(rows.map((row) => row.workflow_id)))
    await tellSession(temporal, workflowId, networkWitnessLeftSignal, []);
  return rows.map(({ bn_session_id, email }) => ({ bn_session_id, email }));
}

/**
 * Sessions a network notary who left the network was offered, or accepted and has not started: each is
 * told, withdraws the offer or lets the notary go, and goes on to another notary at once.
 */
export async function requeueSessionsOfNotaryWhoLeft(
  sequelize: Sequelize,
  temporal: TemporalHandle,
  notaryId: string,
): Promise<string[]> {
  const rows = await queryRows<{ bn_session_id: string; workflow_id: string }>(
    sequelize,
    `SELECT s.id AS bn_session_id, s.workflow_id FROM sessions s
      WHERE s.status = ANY($2)
        AND (s.network_notary_id = $1 OR EXISTS (SELECT 1 FROM notary_offers o
                                                   WHERE o.session_id = s.id AND o.notary_id = $1 AND o.outcome = 'open'))
      ORDER BY s.created_at`,
    { bind: [notaryId, BEFORE_THE_ACT] },
  );
  for (const { workflow_id } of rows)
    await tellSession(temporal, workflow_id, networkNotaryLeftSignal, [{ notaryId }]);
  return rows.map((row) => row.bn_session_id);
}

/** Signals a session's workflow within the deadline; one that has ended has nothing to hear. */
export async function tellSession<Args extends unknown[]>(
  temporal: TemporalHandle,
  workflowId: string,
  signal: SignalDefinition<Args>,
  args: Args,
): Promise<void> {
  const handle = temporal.client.workflow.getHandle(workflowId);
  try {
    await temporal.connection.withDeadline(Date.now() + TEMPORAL_DEADLINE_MS, () =>
      handle.signal(signal, ...args),
    );
  } catch (err) {
    // A session that ended since it was read has nothing left to change.
    if (err instanceof WorkflowNotFoundError) return;
    if (isUnavailable(err)) throw unavailable(SESSION_UNREACHABLE);
    throw err;
  }
}
