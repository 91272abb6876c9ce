import type { UpdateDefinition } from '@temporalio/common';
import { SESSION_ENDED, updateSession } from '../temporal/sessionUpdates';
import type { TemporalHandle } from '../temporal/client';
import { conflict } from '../domain/errors';
import { errorOfRefusal, throwIfRefused } from '../domain/refusals';
import {
  cancelUpdate,
  completeUpdate,
  pretaggedUpdate,
  releaseDocumentsUpdate,
  startUpdate,
  type ActionResult,
  type NotaryActionName,
} from '../../core/session/messages';
import { judgeActor, judgeRequest, type Actor } from '../../core/session/machine';
import { hasEnded } from '../../core/session/statuses';
import type { SessionRow } from '../../core/session/rows';
import { recordedResult, recordedState, throwIfWorkflowStopped } from './sessionRules';

export const NOTARY_ACTIONS = {
  pretagged: { update: pretaggedUpdate, summary: 'Mark the documents pretagged: lifts the invitation hold' },
  start: {
    update: startUpdate,
    summary: 'Start the session (needs a notary and at least one joined signer)',
  },
  complete: { update: completeUpdate, summary: 'Complete the session (needs in_progress)' },
  release_documents: {
    update: releaseDocumentsUpdate,
    summary: 'Release held documents (notary_manual delivery); recorded while they are still being finalized',
  },
  cancel: { update: cancelUpdate, summary: 'Cancel the session (before completion)' },
} as const satisfies Record<NotaryActionName, { update: unknown; summary: string }>;

export type NotaryAction = NotaryActionName;

/**
 * A notary action is a workflow update: its validator judges (the session machine's refusal, with its
 * reason), and its answer is the action's result. A session whose workflow has closed is judged by the
 * same machine on the state it recorded last.
 */
export async function runNotaryAction(
  temporal: TemporalHandle,
  session: SessionRow,
  action: NotaryAction,
  actor: Actor,
  steps: {
    /**
     * The action's own conditions on data the workflow does not hold (a notary's commission), checked
     * once the session is known to be open; answers the update's arguments.
     */
    prepare: () => Promise<unknown[]>;
    /** The session's row read again, for what its workflow recorded before closing. */
    reread: () => Promise<SessionRow>;
  },
): Promise<ActionResult> {
  throwIfRefused(
    judgeActor(
      actor,
      { memberId: session.notary_member_id, networkNotaryId: session.network_notary_id },
      action,
    ),
  );
  const recorded = recordedResult(session);
  if (hasEnded(recorded)) return answerFromRecord(session, action);
  const args = await steps.prepare();
  const answer = await updateSession(
    temporal,
    session.workflow_id,
    NOTARY_ACTIONS[action].update as UpdateDefinition<ActionResult, unknown[]>,
    args,
  );
  switch (answer.outcome) {
    case 'applied':
      return answer.result;
    case 'already_done':
      return recorded;
    case 'refused':
      throw errorOfRefusal(answer.refusal);
    case 'closed':
      // Closed since the row was read: what it recorded before closing is its last state.
      return answerFromRecord(await steps.reread(), action);
  }
}

function answerFromRecord(session: SessionRow, action: NotaryAction): ActionResult {
  throwIfWorkflowStopped(session);
  const verdict = judgeRequest(recordedState(session), session.plan, action, Date.now());
  throwIfRefused(verdict);
  if (verdict.outcome === 'already_done') return recordedResult(session);
  throw conflict(`${SESSION_ENDED}: it is ${session.status}`);
}
