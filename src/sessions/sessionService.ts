import type { Sequelize } from 'sequelize';
import type { Config } from '../config';
import type { DocumentPool } from '../documents/documentPool';
import { signingSummary } from '../reads/signingSummary';
import { presenceInRoom } from '../reads/presence';
import type { TemporalHandle } from '../temporal/client';
import { conflict } from '../domain/errors';
import type { CancelledBy, CompleteRequest, NotaryActionName } from '../../core/session/messages';
import { judgeRequest, type Actor } from '../../core/session/machine';
import { commissionLapse, commissionOutsideRequest } from '../../core/session/commission';
import type { SessionRow } from '../../core/session/rows';
import { assignedNetworkSession } from '../reads/networkSessions';
import { sessionNotaryCommission } from '../team/commissions';
import { replaceWitnessesWhoLeft } from './networkDepartures';
import { NOTARY_WAIT_RETRY_SECONDS } from '../../core/session/statuses';
import {
  findSessionRow,
  listSessions,
  sessionDocuments,
  sessionParticipants,
  type SessionFilters,
} from '../reads/sessionReads';
import { recordedState } from './sessionRules';
import { SessionCreation } from './sessionCreation';
import { DocumentAddition } from './documentAddition';
import { TransactionsThroughTemporal } from './transactionsThroughTemporal';

/** The session use cases the API calls: create, look up, add documents, prepare a notary action. */
export class SessionService {
  readonly creation: SessionCreation;
  readonly documentAddition: DocumentAddition;
  /** Transactions that wait on the session's workflow before they commit, sharing one bound. */
  readonly transactions: TransactionsThroughTemporal;

  constructor(
    private readonly sequelize: Sequelize,
    private readonly temporal: TemporalHandle,
    config: Config,
    documents: DocumentPool,
  ) {
    const transactions = new TransactionsThroughTemporal(sequelize, temporal);
    this.transactions = transactions;
    this.creation = new SessionCreation(sequelize, temporal, config, documents, transactions);
    this.documentAddition = new DocumentAddition(sequelize, temporal, documents, transactions);
  }

  /** A session a network notary is the notary of; any other is "not found" to them. */
  findRowForNetworkNotary(notaryId: string, sessionId: string): Promise<SessionRow> {
    return assignedNetworkSession(this.sequelize, notaryId, sessionId);
  }

  /** One session of the account; another account's, unknown and malformed ids are all "not found". */
  findRow(accountId: string, sessionId: string): Promise<SessionRow> {
    return findSessionRow(this.sequelize, accountId, sessionId);
  }

  /**
   * What a notary action needs of the notary's commission, which the workflow does not hold. A start needs
   * one on file, in force now and from the state the session asked for, if it did (else a 409). A
   * completion, the notarial act, takes its expiry and end to the workflow, which judges them at the act's
   * own time (the time the certificate states), and the notary as the same read found them, whom the
   * session's certificates then state, with the time zone their device reported.
   */
  async notaryActionArguments(
    session: SessionRow,
    action: NotaryActionName,
    body: { time_zone?: string; reason?: string },
    actor: Actor,
  ): Promise<unknown[]> {
    if (action === 'complete') {
      const { expiresOn, endsAt, notary } = await sessionNotaryCommission(this.sequelize, session.id);
      const request: CompleteRequest = {
        commissionExpiresOn: expiresOn,
        ...(endsAt !== undefined ? { commissionEndsAt: new Date(endsAt).toISOString() } : {}),
        notary: body.time_zone ? { ...notary, time_zone: body.time_zone } : notary,
      };
      return [request];
    }
    if (action === 'start') await this.assertNotaryMayStart(session);
    if (action === 'cancel') {
      const by: CancelledBy =
        actor.kind === 'network_notary' || (actor.kind === 'member' && actor.role === 'notary')
          ? 'notary'
          : 'account';
      return [{ ...(body.reason ? { reason: body.reason } : {}), by }];
    }
    return [];
  }

  private async assertNotaryMayStart(session: SessionRow): Promise<void> {
    // A retried start of a session that did start is answered as such (see runNotaryAction).
    if (judgeRequest(recordedState(session), session.plan, 'start', Date.now()).outcome === 'already_done')
      return;
    const commission = await sessionNotaryCommission(this.sequelize, session.id);
    const lapse = commission.hasNotary
      ? (commissionLapse(commission, Date.now()) ?? commissionOutsideRequest(session.plan, commission))
      : undefined;
    if (lapse) throw conflict(`Session cannot be started: ${lapse}`);
    if (!session.plan.serviceWitnesses) return;
    // The session is told here too, in case the operator's removal could not tell it.
    const left = await replaceWitnessesWhoLeft(this.sequelize, this.temporal, { sessionId: session.id });
    if (left.length)
      throw conflict(
        left.length === 1
          ? `Session cannot be started: its network witness ${left[0].email} left the network; another is being assigned`
          : `Session cannot be started: its network witnesses ${left.map((w) => w.email).join(', ')} left the network; others are being assigned`,
        NOTARY_WAIT_RETRY_SECONDS,
      );
  }

  /** One session of the account with its participants and documents; during a live act, who is on camera. */
  async get(accountId: string, sessionId: string) {
    const row = await this.findRow(accountId, sessionId);
    const signing = await signingSummary(this.sequelize, sessionId);
    const room =
      row.status === 'in_progress' && !row.test_mode && (await presenceInRoom(this.sequelize, sessionId));
    return {
      row,
      notaryPresence: room ? room.of({ role: 'notary', index: null }) : undefined,
      participants: (await sessionParticipants(this.sequelize, sessionId)).map((p) => ({
        ...p,
        ...signing.participant(p),
        ...(room ? { presence: room.of(p) } : {}),
      })),
      documents: (await sessionDocuments(this.sequelize, sessionId)).map((d) => ({
        ...d,
        ...signing.document(d.document_id),
      })),
    };
  }

  list(accountId: string, filters: SessionFilters) {
    return listSessions(this.sequelize, accountId, filters);
  }
}
