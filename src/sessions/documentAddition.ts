import type { Sequelize } from 'sequelize';
import type { BeforeCommit } from '../db/beforeCommit';
import type { DocumentPool } from '../documents/documentPool';
import {
  answerFailedTransaction,
  appliedOrRollBack,
  updateSession,
  UpdateNotApplied,
} from '../temporal/sessionUpdates';
import type { TemporalHandle } from '../temporal/client';
import { throwIfRefused } from '../domain/refusals';
import { execute, queryRows } from '../db/query';
import { addDocumentsUpdate } from '../../core/session/messages';
import { judgeRequest } from '../../core/session/machine';
import { MAX_DOCUMENTS_PER_SESSION } from '../../core/vocabulary';
import { VALIDATION_OPTIONS } from '../validation/options';
import { addDocumentsSchema, type DocumentRequest } from './createRequest';
import { createFailure, documentTooLarge, messageOf, SPEC_MESSAGES } from './createRules';
import { insertDocuments, prepareUploads, storeUploads, refusingBadDocuments } from './documentIntake';
import { refuseWhileTemporalUnreachable } from './sessionWorkflows';
import { findSessionRow, sessionDocuments } from '../reads/sessionReads';
import { recordedState, throwIfWorkflowStopped } from './sessionRules';
import type { TransactionsThroughTemporal } from './transactionsThroughTemporal';

/** The session's documents once the addition committed. */
export interface AddedDocuments {
  sessionId: string;
  documents: Awaited<ReturnType<typeof sessionDocuments>>;
}

/** Spec 4.3: documents added to a session that has not started. */
export class DocumentAddition {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly temporal: TemporalHandle,
    private readonly documents: DocumentPool,
    private readonly transactions: TransactionsThroughTemporal,
  ) {}

  /**
   * Spec 4.3: documents join the session only while its workflow accepts them (before in_progress). The
   * rows are written first and committed only once the workflow's update has accepted them.
   */
  async add(
    accountId: string,
    sessionId: string,
    raw: unknown,
    beforeCommit?: BeforeCommit<AddedDocuments>,
  ): Promise<AddedDocuments> {
    const session = await findSessionRow(this.sequelize, accountId, sessionId);
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
      return await this.transactions.run(async (transaction) => {
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
        appliedOrRollBack(
          await updateSession(this.temporal, session.workflow_id, addDocumentsUpdate, [{ documentIds }]),
        );
        const added = {
          sessionId,
          documents: await sessionDocuments(this.sequelize, sessionId, transaction),
        };
        await beforeCommit?.(added, transaction);
        return added;
      });
    } catch (err) {
      if (err instanceof UpdateNotApplied && err.answer.outcome === 'closed') {
        // Closed since the row was read: judged on what it recorded last.
        const closed = await findSessionRow(this.sequelize, accountId, sessionId);
        throwIfWorkflowStopped(closed);
        throwIfRefused(judgeRequest(recordedState(closed), closed.plan, 'add_documents', Date.now()));
      }
      answerFailedTransaction(err);
      throw err;
    }
  }
}
