import crypto from 'node:crypto';
import type { Sequelize } from 'sequelize';
import type { BeforeCommit } from '../db/beforeCommit';
import type { Config } from '../config';
import type { DocumentPool } from '../documents/documentPool';
import type { TemporalHandle } from '../temporal/client';
import { unavailable, DomainError, UNAVAILABLE_MESSAGE } from '../domain/errors';
import { isUnavailable } from '../outages';
import { invitationOf, invitationRows } from './invitations';
import { workflowIdOf } from '../../core/session/messages';
import { initialStatus } from '../../core/session/statuses';
import { planOf } from '../../core/session/plan';
import { validateCreateRequest } from './createRules';
import { documentsFromTemplates, prepareUploads, storeUploads, refusingBadDocuments } from './documentIntake';
import { sessionColumnsOf, workflowInputOf } from './creationPlan';
import { refuseWhileTemporalUnreachable, startSessionWorkflow, terminateQuietly } from './sessionWorkflows';
import { participantRecords, participantsOf, signingPath, type NewParticipant } from './participants';
import { insertSession } from './sessionRows';
import { findAccountNotary } from './notaries';
import type { TransactionsThroughTemporal } from './transactionsThroughTemporal';

/** The account a session is created for, as its key was read. */
export interface CreatingAccount {
  accountId: string;
  whiteLabelBaseUrl: string | null;
  testMode: boolean;
}

/** A participant of a new session with their signing link, relative and absolute. */
export interface LinkedParticipant {
  role: 'signer' | 'witness';
  index: number;
  email: string;
  signingPath: string;
  signingUrl: string;
}

/** What a create made: the session and every participant's link (shown once; stored only as a hash). */
export interface CreatedSession {
  sessionId: string;
  notarizationId: string;
  participants: LinkedParticipant[];
  testMode: boolean;
}

/** A participant's signing link, on the account's white-label base URL or the service's. */
function linkOf(p: NewParticipant, baseUrl: string): LinkedParticipant {
  return {
    role: p.role,
    index: p.index,
    email: p.email,
    signingPath: signingPath(p.token),
    signingUrl: `${baseUrl}${signingPath(p.token)}`,
  };
}

/**
 * Creates a session's rows and starts its workflow as one unit: the workflow is started inside the open
 * transaction, so a Temporal failure rolls the rows back, and a failed commit terminates the workflow
 * (which also ends itself when it cannot find its session). Either way the caller gets a 503 and may
 * simply retry.
 */
export class SessionCreation {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly temporal: TemporalHandle,
    private readonly config: Config,
    private readonly documents: DocumentPool,
    private readonly transactions: TransactionsThroughTemporal,
  ) {}

  async create(
    account: CreatingAccount,
    raw: unknown,
    beforeCommit?: BeforeCommit<CreatedSession>,
  ): Promise<CreatedSession> {
    const { accountId } = account;
    const now = new Date();
    const { input, notaryMemberId } = await this.validated(accountId, raw, now);
    const sessionId = crypto.randomUUID();
    const plan = planOf(input, notaryMemberId, account.testMode);
    const status = initialStatus(plan, now.getTime());
    const participants = participantsOf(input);
    // Document work first, outside the transaction: no database connection waits on a conversion.
    const uploads = await refusingBadDocuments(() =>
      prepareUploads(this.sequelize, accountId, input.session_documents ?? [], this.documents),
    );
    const baseUrl = account.whiteLabelBaseUrl ?? this.config.publicBaseUrl;
    const created: CreatedSession = {
      sessionId,
      notarizationId: input.notarization_id ?? '',
      participants: participants.map((p) => linkOf(p, baseUrl)),
      testMode: account.testMode,
    };
    let workflowStarted = false;
    try {
      return await this.transactions.run(async (transaction) => {
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
              participants.map((p) => invitationOf(p, linkOf(p, baseUrl).signingUrl)),
            ),
          },
          transaction,
        );
        // Again: this request may have waited in its transaction (on another's lock of the same blob).
        refuseWhileTemporalUnreachable(this.temporal);
        await startSessionWorkflow(
          this.temporal,
          this.config.taskQueue,
          workflowIdOf(sessionId),
          workflowInputOf(sessionId, accountId, input, plan, transactionId),
          status,
        );
        workflowStarted = true;
        await beforeCommit?.(created, transaction);
        return created;
      });
    } catch (err) {
      if (err instanceof DomainError) throw err;
      if (workflowStarted) await terminateQuietly(this.temporal, workflowIdOf(sessionId));
      if (isUnavailable(err) || workflowStarted) throw unavailable(UNAVAILABLE_MESSAGE);
      throw err;
    }
  }

  /** The create request, checked by the spec's rules, and the team notary it names (null: on demand). */
  private async validated(accountId: string, raw: unknown, now: Date) {
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
    return { input, notaryMemberId };
  }
}
