/**
 * The API's side of the session's rules: it asks the same machine the workflow asks (for who may act,
 * and for sessions whose workflow has closed), and answers for sessions by what they recorded.
 */
import { conflict } from '../domain/errors';
import { SESSION_ENDED } from '../temporal/sessionUpdates';
import type { ActionResult } from '../../core/session/messages';
import type { SessionState } from '../../core/session/machine';
import { hasEnded } from '../../core/session/statuses';
import type { SessionRow } from '../../core/session/rows';

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
  throw conflict(`${SESSION_ENDED}: its workflow was stopped while it was ${stage}`);
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
