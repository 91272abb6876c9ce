/**
 * The API's side of the session's rules: it asks the same machine the workflow asks (for who may act,
 * and for sessions whose workflow has closed), and turns the machine's refusals into domain errors.
 */
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { conflict, refused, type DomainError } from '../domain/errors';
import { ALREADY_DONE, REFUSED, type ActionResult, type Refusal } from '../../core/session/messages';
import { type SessionState, type Verdict } from '../../core/session/machine';
import { hasEnded } from '../../core/session/statuses';
import type { SessionRow } from '../../core/session/rows';

export function errorOfRefusal(refusal: Refusal): DomainError {
  return refusal.kind === 'forbidden'
    ? refused(refusal.reason)
    : conflict(refusal.reason, refusal.retryAfterSeconds);
}

/** Throws what a refused verdict means; `allowed` and `already_done` pass. */
export function throwIfRefused(verdict: Verdict): void {
  if (verdict.outcome === 'refused') throw errorOfRefusal(verdict.refusal);
}

/**
 * For a session whose workflow has closed. A workflow closes once its session has ended (`hasEnded`),
 * having recorded so; a record short of that means its workflow was stopped outside its course (an
 * operator terminated it; the terminated-workflow sweep records an unfinished one cancelled): nothing can
 * act on it any more.
 */
export function throwIfWorkflowStopped(row: SessionRow): void {
  const { status, documentsStatus } = recordedResult(row);
  if (hasEnded({ status, documentsStatus })) return;
  const stage = status === 'completed' ? `completed, its documents ${documentsStatus}` : status;
  throw conflict(`Session has ended: its workflow was stopped while it was ${stage}`);
}

/** The machine's verdict that a workflow's validator answered an update with, if it answered one. */
export function verdictOfUpdateFailure(err: unknown): Verdict | undefined {
  if (!(err instanceof WorkflowUpdateFailedError) || !(err.cause instanceof ApplicationFailure))
    return undefined;
  if (err.cause.type === ALREADY_DONE) return { outcome: 'already_done' };
  if (err.cause.type === REFUSED) return { outcome: 'refused', refusal: err.cause.details?.[0] as Refusal };
  return undefined;
}

export const recordedResult = (row: Pick<SessionRow, 'status' | 'documents_status'>): ActionResult => ({
  status: row.status,
  documentsStatus: row.documents_status,
});

export function recordedState(
  row: Pick<SessionRow, 'status' | 'documents_status'>,
  joined: SessionState['joined'] = [],
  verified: SessionState['verified'] = [],
): SessionState {
  return { ...recordedResult(row), joined, verified, recordingRunning: false };
}
