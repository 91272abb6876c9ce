import type { UpdateDefinition } from '@temporalio/common';
import { SESSION_UPDATE_DEADLINE_MS, updateSession, type SessionAnswer } from '../temporal/sessionUpdates';
import type { Sequelize } from 'sequelize';
import type { TemporalHandle } from '../temporal/client';
import { conflict } from '../domain/errors';
import { errorOfRefusal } from '../domain/refusals';
import { acceptOfferUpdate, declineOfferUpdate, type ActionResult } from '../../core/session/messages';
import { recordedResult } from '../sessions/sessionRules';
import { offeredOrAssignedSession } from '../reads/networkSessions';
import { rowExists } from '../db/query';
import { networkNotaryCommission } from './commissionHorizon';
import { commissionOnFile } from '../team/jurisdictionTime';
import { commissionLapse, commissionOutsideRequest } from '../../core/session/commission';
import type { SessionRow } from '../../core/session/rows';

/**
 * A network notary accepts a session offered to them. The session's workflow judges it (its open offer
 * must be theirs): the first accept of the one open offer wins, and a retried accept answers with the
 * session's state. `waitedMs` is how long the signer had waited for a notary, when this accept won.
 */
export async function acceptOffer(
  sequelize: Sequelize,
  temporal: TemporalHandle,
  notaryId: string,
  sessionId: string,
): Promise<ActionResult & { waitedMs?: number }> {
  const session = await offeredOrAssignedSession(sequelize, notaryId, sessionId);
  // A retried accept is answered as such; a first one needs a commission still in force (offers made just
  // before it ended would otherwise hand the session to a notary who cannot start it), from the state the
  // session asked for.
  if (session.network_notary_id !== notaryId) await assertMayTake(sequelize, notaryId, session);
  const answer = await answerOffer(sequelize, temporal, notaryId, session, acceptOfferUpdate);
  if (answer.outcome === 'applied') return answer.result;
  if (answer.outcome === 'already_done') return recordedResult(session);
  throw notApplied(answer);
}

/** A network notary passes the session offered to them on to the next notary at once. */
export async function declineOffer(
  sequelize: Sequelize,
  temporal: TemporalHandle,
  notaryId: string,
  sessionId: string,
): Promise<ActionResult> {
  const session = await offeredOrAssignedSession(sequelize, notaryId, sessionId);
  const answer = await answerOffer(sequelize, temporal, notaryId, session, declineOfferUpdate);
  if (answer.outcome === 'applied') return answer.result;
  throw notApplied(answer);
}

const CATCH_UP_MS = 100;

/**
 * Sends a notary's answer to the session's workflow. The offer is written before the workflow hears of
 * it: an answer quick enough to come in between is sent again once it has.
 */
async function answerOffer<Result>(
  sequelize: Sequelize,
  temporal: TemporalHandle,
  notaryId: string,
  session: SessionRow,
  update: UpdateDefinition<Result, [{ notaryId: string }]>,
): Promise<SessionAnswer<Result>> {
  const deadline = Date.now() + SESSION_UPDATE_DEADLINE_MS;
  for (;;) {
    const answer = await updateSession(temporal, session.workflow_id, update, [{ notaryId }]);
    if (answer.outcome !== 'refused' || Date.now() >= deadline - CATCH_UP_MS) return answer;
    if (!(await offerIsOpen(sequelize, notaryId, session.id))) return answer;
    await new Promise((r) => setTimeout(r, CATCH_UP_MS));
  }
}

/** A refusal says why; a session that has closed, or a decline already done, is no longer offered. */
function notApplied(answer: SessionAnswer<unknown>): Error {
  if (answer.outcome === 'refused') return errorOfRefusal(answer.refusal);
  return conflict('This session is no longer offered to you');
}

async function assertMayTake(sequelize: Sequelize, notaryId: string, session: SessionRow): Promise<void> {
  const notary = await networkNotaryCommission(sequelize, notaryId);
  const commission = commissionOnFile(notary.state, notary.commission_expires_on);
  const lapse = commissionLapse(commission, Date.now()) ?? commissionOutsideRequest(session.plan, commission);
  if (lapse) throw conflict(`Session cannot be accepted: ${lapse}`);
}

function offerIsOpen(sequelize: Sequelize, notaryId: string, sessionId: string): Promise<boolean> {
  return rowExists(
    sequelize,
    `SELECT 1 FROM notary_offers
      WHERE session_id = $1 AND notary_id = $2 AND outcome = 'open' AND expires_at > now()`,
    { bind: [sessionId, notaryId] },
  );
}
