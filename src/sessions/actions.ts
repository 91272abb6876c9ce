import { WorkflowNotFoundError, type UpdateDefinition } from '@temporalio/common';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import type { TemporalHandle } from '../temporal/client';
import { conflict, unavailable } from '../domain/errors';
import { isUnavailable } from '../infra/unavailable';
import {
  actionAlreadyApplied,
  cancelUpdate,
  completeUpdate,
  FINAL_STATUSES,
  pretaggedUpdate,
  releaseDocumentsUpdate,
  startUpdate,
  type ActionResult,
  type NotaryActionName,
} from '../../workflows/sessionDefinitions';
import type { SessionRow } from './presenter';

export const NOTARY_ACTIONS = {
  pretagged: { update: pretaggedUpdate, summary: 'Mark the documents pretagged: lifts the invitation hold' },
  start: {
    update: startUpdate,
    summary: 'Start the session (needs a notary and at least one joined signer)',
  },
  complete: { update: completeUpdate, summary: 'Complete the session (needs in_progress)' },
  release_documents: {
    update: releaseDocumentsUpdate,
    summary: 'Release held documents (notary_manual delivery)',
  },
  cancel: { update: cancelUpdate, summary: 'Cancel the session (before completion)' },
} as const satisfies Record<NotaryActionName, { update: unknown; summary: string }>;

export type NotaryAction = NotaryActionName;

const DEADLINE_MS = 15_000;

/**
 * A notary action is a workflow update: its validator decides (409 with its reason), and its answer is
 * the HTTP answer. The deadline bounds the call; an expired deadline is a retryable 503.
 */
export async function runNotaryAction(
  temporal: TemporalHandle,
  session: SessionRow,
  action: NotaryAction,
): Promise<ActionResult> {
  // A retry after a lost answer: the action happened. The workflow answers with its current state; once
  // it has closed, the state it recorded before closing is final and answers instead.
  const recorded = { status: session.status, documentsStatus: session.documents_status };
  const applied = actionAlreadyApplied(action, recorded);
  if (!applied && FINAL_STATUSES.includes(session.status) && action !== 'release_documents') {
    throw conflict(`Session is ${session.status}`);
  }
  const handle = temporal.client.workflow.getHandle(session.workflow_id);
  try {
    return await temporal.connection.withDeadline(Date.now() + DEADLINE_MS, () =>
      action === 'cancel'
        ? handle.executeUpdate(cancelUpdate, { args: [{}] })
        : handle.executeUpdate(NOTARY_ACTIONS[action].update as UpdateDefinition<ActionResult, []>),
    );
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) {
      throw conflict((err.cause as Error | undefined)?.message ?? `Session cannot ${action} now`);
    }
    if (err instanceof WorkflowNotFoundError) {
      if (applied) return recorded;
      throw conflict('Session has ended');
    }
    if (isUnavailable(err)) throw unavailable('The session could not be reached in time; retry the request');
    throw err;
  }
}
