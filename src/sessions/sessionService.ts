import crypto from 'node:crypto';
import pLimit from 'p-limit';
import { WorkflowNotFoundError } from '@temporalio/common';
import { executeUpdate } from '../temporal/updates';
import type { Sequelize, Transaction } from 'sequelize';
import type { BeforeCommit } from '../db/beforeCommit';
import type { Config } from '../config';
import type { DocumentPool } from '../documents/documentPool';
import { TEMPORAL_DEADLINE_MS, type TemporalHandle } from '../temporal/client';
import { conflict, unavailable, DomainError, UNAVAILABLE_MESSAGE } from '../domain/errors';
import { isUnavailable } from '../infra/unavailable';
import { invitationOf, invitationRows } from '../mail/invitations';
import {
  addDocumentsUpdate,
  workflowIdOf,
  type CompleteRequest,
  type NotaryActionName,
} from '../../core/session/messages';
import {
  commissionLapse,
  commissionOutsideRequest,
  initialStatus,
  judgeRequest,
} from '../../core/session/machine';
import { addDocumentsSchema, type DocumentRequest } from './createRequest';
import { MAX_DOCUMENTS_PER_SESSION } from '../../core/vocabulary';
import {
  createFailure,
  documentTooLarge,
  messageOf,
  SPEC_MESSAGES,
  validateCreateRequest,
} from './createRules';
import {
  documentsFromTemplates,
  insertDocuments,
  prepareUploads,
  storeUploads,
  refusingBadDocuments,
} from './documentIntake';
import { sessionColumnsOf, workflowInputOf } from './creationPlan';
import { planOf } from '../../core/session/plan';
import { refuseWhileTemporalUnreachable, startSessionWorkflow, terminateQuietly } from './sessionWorkflows';
import { participantRecords, participantsOf, signingPath, type NewParticipant } from './participants';
import { insertSession } from './sessionRows';
import { findAccountNotary } from './notaries';
import { assignedNetworkSession } from '../network/workQueue';
import { sessionNotaryCommission } from '../team/commissions';
import { VALIDATION_OPTIONS } from '../validation/options';
import { presentSession } from './presenter';
import type { SessionRow } from '../../core/session/rows';
import {
  findSessionRow,
  listSessions,
  sessionDocuments,
  sessionParticipants,
  type SessionFilters,
} from './sessionReads';
import {
  recordedState,
  throwIfRefused,
  throwIfWorkflowStopped,
  verdictOfUpdateFailure,
} from './sessionRules';
import { execute, queryRows } from '../db/query';
import { DATABASE_POOL_MAX } from '../db/database';

/** The account a session is created for, as its key was read. */
export interface CreatingAccount {
  accountId: string;
  whiteLabelBaseUrl: string | null;
}

interface SigningUrl {
  bn_signing_url: string;
  full_signing_url: string;
}

/** The create answer (spec 4.1): the primary signer's URL, every signer's and every invited witness's. */
function createAnswer(
  sessionId: string,
  notarizationId: string,
  participants: NewParticipant[],
  urlOf: (p: NewParticipant) => SigningUrl,
) {
  const signers = participants.filter((p) => p.role === 'signer');
  return {
    response: 'Pass',
    response_message: 'Session created successfully',
    notarization_id: notarizationId,
    bn_session_id: sessionId,
    ...urlOf(signers[0]),
    additional_signers_signing_urls: signers.slice(1).map(urlOf),
    signing_urls: signers.map((p) => ({ signer_index: p.index, ...urlOf(p) })),
    witnessess_signing_urls: participants
      .filter((p) => p.role === 'witness')
      .map((p) => ({ witness_index: p.index, email: p.email, ...urlOf(p) })),
  };
}

export class SessionService {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly temporal: TemporalHandle,
    private readonly config: Config,
    private readonly documents: DocumentPool,
  ) {}

  /**
   * The transactions that call Temporal before they commit (a create, an addition of documents) hold their
   * connection through the call, so they take at most all but two of the process's: while Temporal is slow
   * or unreachable, requests that need only PostgreSQL still have two to run on.
   */
  private readonly throughTemporal = pLimit(DATABASE_POOL_MAX - 2);

  /** A transaction that calls Temporal before it commits; refused at once while Temporal is known down. */
  private transactionThroughTemporal<T>(work: (transaction: Transaction) => Promise<T>): Promise<T> {
    return this.throughTemporal(() =>
      this.sequelize.transaction(async (transaction) => {
        refuseWhileTemporalUnreachable(this.temporal);
        return work(transaction);
      }),
    );
  }

  /**
   * Creates the session's rows and starts its workflow as one unit: the workflow is started inside the
   * open transaction, so a Temporal failure rolls the rows back, and a failed commit terminates the
   * workflow (which also ends itself when it cannot find its session). Either way the caller gets a
   * 503 and may simply retry.
   */
  async create(account: CreatingAccount, raw: unknown, beforeCommit?: BeforeCommit<unknown>) {
    const { accountId } = account;
    const now = new Date();
    const notaryLookup = new Map<string, string | null>();
    const input = await validateCreateRequest(raw, {
      now,
      isAccountNotary: async (email, actAt, state) => {
        const member = await findAccountNotary(this.sequelize, accountId, email, actAt, state);
        notaryLookup.set(email, member?.id ?? null);
        return Boolean(member);
      },
    });
    const notaryMemberId = input.session_notary_email
      ? (notaryLookup.get(input.session_notary_email) ?? null)
      : null;
    const sessionId = crypto.randomUUID();
    const workflowId = workflowIdOf(sessionId);
    const plan = planOf(input, notaryMemberId);
    const status = initialStatus(plan, now.getTime());
    const participants = participantsOf(input);
    // Document work first, outside the transaction: no database connection waits on a conversion.
    const uploads = await refusingBadDocuments(() =>
      prepareUploads(this.sequelize, accountId, input.session_documents ?? [], this.documents),
    );
    const baseUrl = account.whiteLabelBaseUrl ?? this.config.publicBaseUrl;
    const urlOf = (p: NewParticipant): SigningUrl => ({
      bn_signing_url: signingPath(p.token),
      full_signing_url: `${baseUrl}${signingPath(p.token)}`,
    });
    const answer = createAnswer(sessionId, input.notarization_id ?? '', participants, urlOf);
    let workflowStarted = false;
    try {
      return await this.transactionThroughTemporal(async (transaction) => {
        const documents = [
          ...(await storeUploads(this.sequelize, accountId, uploads, transaction)),
          ...(await refusingBadDocuments(() =>
            documentsFromTemplates(this.sequelize, accountId, input.document_templates ?? [], transaction),
          )),
        ];
        const transactionId = await insertSession(
          this.sequelize,
          {
            session: sessionColumnsOf(sessionId, accountId, input, status, plan),
            participants: participantRecords(participants),
            // authentication_type `skip` waives identity proofing: recorded as allowed by the account that asked.
            waived: participants.filter(
              (p) => p.role === 'signer' && p.details.authentication_type === 'skip',
            ),
            waivedBy: `account:${accountId}`,
            documents,
            notaryCanEditAll: input.session_configurations?.notary_can_edit_documents ?? false,
            invitations: invitationRows(
              input.notarization_id ?? null,
              participants.map((p) => invitationOf(p, urlOf(p).full_signing_url)),
            ),
          },
          transaction,
        );
        // Again: this request may have waited in its transaction (on another's lock of the same blob).
        refuseWhileTemporalUnreachable(this.temporal);
        await startSessionWorkflow(
          this.temporal,
          this.config.taskQueue,
          workflowId,
          workflowInputOf(sessionId, accountId, input, plan, transactionId),
          status,
        );
        workflowStarted = true;
        await beforeCommit?.(answer, transaction);
        return answer;
      });
    } catch (err) {
      if (err instanceof DomainError) throw err;
      if (workflowStarted) await terminateQuietly(this.temporal, workflowId);
      if (isUnavailable(err) || workflowStarted) throw unavailable(UNAVAILABLE_MESSAGE);
      throw err;
    }
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
    body: { time_zone?: string } = {},
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
  }

  async get(accountId: string, sessionId: string) {
    return presentSession(
      await this.findRow(accountId, sessionId),
      await sessionParticipants(this.sequelize, sessionId),
      await sessionDocuments(this.sequelize, sessionId),
    );
  }

  list(accountId: string, filters: SessionFilters) {
    return listSessions(this.sequelize, accountId, filters);
  }

  /**
   * Spec 4.3: documents join the session only while its workflow accepts them (before in_progress). The
   * rows are written first and committed only once the workflow's update has accepted them.
   */
  async addDocuments(
    accountId: string,
    sessionId: string,
    raw: unknown,
    beforeCommit?: BeforeCommit<unknown>,
  ) {
    const session = await this.findRow(accountId, sessionId);
    // Statuses only move forward: a recorded status that refuses documents is past the point of adding them.
    throwIfRefused(judgeRequest(recordedState(session), session.plan, 'add_documents', Date.now()));
    if (documentTooLarge((raw as { session_documents?: unknown })?.session_documents)) {
      throw createFailure(SPEC_MESSAGES.documentTooLarge);
    }
    const { error, value } = addDocumentsSchema.validate(raw, VALIDATION_OPTIONS);
    if (error) throw createFailure(messageOf(error));
    const uploads = (value as { session_documents: DocumentRequest[] }).session_documents;
    const notaryCanEditAll = Boolean(
      (session.options as { session_configurations?: { notary_can_edit_documents?: boolean } })
        .session_configurations?.notary_can_edit_documents,
    );
    // Document work first, outside the transaction (see create).
    const prepared = await refusingBadDocuments(() =>
      prepareUploads(this.sequelize, accountId, uploads, this.documents),
    );
    try {
      return await this.transactionThroughTemporal(async (transaction) => {
        // A lock of the session's own orders concurrent additions, so positions and the cap hold under a
        // burst. Not the session's row: this transaction waits for the workflow's update below, and the
        // workflow's database steps (local activities, which hold its task) write that row.
        await execute(
          this.sequelize,
          "SELECT pg_advisory_xact_lock(hashtext('session-documents'), hashtext($1))",
          { bind: [sessionId], transaction },
        );
        const positions = await queryRows<{ next: number; held: number }>(
          this.sequelize,
          'SELECT coalesce(max(position) + 1, 0)::int AS next, count(*)::int AS held FROM documents WHERE session_id = $1',
          { bind: [sessionId], transaction },
        );
        if (positions[0].held + prepared.length > MAX_DOCUMENTS_PER_SESSION)
          throw createFailure(
            `session_documents: a session holds at most ${MAX_DOCUMENTS_PER_SESSION} documents`,
          );
        const documentIds = await insertDocuments(
          this.sequelize,
          sessionId,
          await storeUploads(this.sequelize, accountId, prepared, transaction),
          positions[0].next,
          notaryCanEditAll,
          transaction,
        );
        // Again: this request may have waited in its transaction (on the session's lock) while Temporal went.
        refuseWhileTemporalUnreachable(this.temporal);
        await executeUpdate(
          this.temporal,
          session.workflow_id,
          addDocumentsUpdate,
          [{ documentIds }],
          Date.now() + TEMPORAL_DEADLINE_MS,
        );
        const answer = {
          response: 'Pass',
          bn_session_id: sessionId,
          documents: await sessionDocuments(this.sequelize, sessionId, transaction),
        };
        await beforeCommit?.(answer, transaction);
        return answer;
      });
    } catch (err) {
      const verdict = verdictOfUpdateFailure(err);
      if (verdict) throwIfRefused(verdict);
      if (err instanceof DomainError) throw err;
      if (err instanceof WorkflowNotFoundError) {
        // Closed since the row was read: judged on what it recorded last.
        const closed = await this.findRow(accountId, sessionId);
        throwIfWorkflowStopped(closed);
        throwIfRefused(judgeRequest(recordedState(closed), closed.plan, 'add_documents', Date.now()));
      }
      if (isUnavailable(err)) throw unavailable(UNAVAILABLE_MESSAGE);
      throw err;
    }
  }
}
