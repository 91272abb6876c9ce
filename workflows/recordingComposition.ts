import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { MediaMakingActivities } from '../activities';
import { mediaQueuesOf } from '../core/temporal/mediaQueues';
import { failureType, RETRY_UNTIL_IT_PASSES } from './sessionActivities';

/** The grid takes about half the act's length of one core; heartbeats tell a dead worker's attempt from a slow one. */
const composing = () =>
  proxyActivities<MediaMakingActivities>({
    taskQueue: mediaQueuesOf(workflowInfo().taskQueue).composing,
    startToCloseTimeout: '6h',
    heartbeatTimeout: '30s',
    retry: RETRY_UNTIL_IT_PASSES,
  });

/**
 * The act's composed grid, made after its evidence is stored, on the composing workers; the session's
 * workflow starts it and goes on without it (its documents never wait for the view). An attempt whose
 * worker died starts again from the stored evidence.
 */
export async function recordingCompositionWorkflow(input: {
  sessionId: string;
  recordingId: string;
}): Promise<'available' | 'failed'> {
  try {
    await composing().composeGrid(input);
    return 'available';
  } catch (err) {
    if (failureType(err) !== 'RenditionNotMade') throw err;
    return 'failed';
  }
}
