import { proxyActivities, workflowInfo, type ActivityFailure } from '@temporalio/workflow';
import type { Activities, MediaMakingActivities } from '../activities';
import { mediaQueuesOf } from '../core/temporal/mediaQueues';
import type { EventData } from '../core/session/events';
import { failureType, RETRY_UNTIL_IT_PASSES } from './sessionActivities';
import { publishSessionEvent } from './publishing';

/** The grid takes about half the act's length of one core; heartbeats tell a dead worker's attempt from a slow one. */
const composing = () =>
  proxyActivities<MediaMakingActivities>({
    taskQueue: mediaQueuesOf(workflowInfo().taskQueue).composing,
    startToCloseTimeout: '6h',
    heartbeatTimeout: '30s',
    retry: RETRY_UNTIL_IT_PASSES,
  });
const db = proxyActivities<Activities>({ startToCloseTimeout: '10s', retry: RETRY_UNTIL_IT_PASSES });

/**
 * The act's composed grid, made after its evidence is stored, on the composing workers; the session's
 * workflow starts it and goes on without it (its documents never wait for the view). An attempt whose
 * worker died starts again from the stored evidence. Its outcome goes to the integrator as an event.
 */
export async function recordingCompositionWorkflow(input: {
  sessionId: string;
  recordingId: string;
}): Promise<'available' | 'failed'> {
  let outcome: {
    event: 'rendition_available' | 'rendition_failed';
    data: EventData['rendition_available' | 'rendition_failed'];
  };
  try {
    const made = await composing().composeGrid(input);
    outcome = {
      event: 'rendition_available',
      data: {
        kind: 'grid',
        sha256: made.sha256,
        duration_seconds: made.durationSeconds,
        size_bytes: made.sizeBytes,
      },
    };
  } catch (err) {
    if (failureType(err) !== 'RenditionNotMade') throw err;
    outcome = {
      event: 'rendition_failed',
      data: { kind: 'grid', reason: (err as ActivityFailure).cause!.message },
    };
  }
  // Published once per recording: its data (the grid's hash, or the reason) tells one from another.
  await publishSessionEvent(db, {
    sessionId: input.sessionId,
    ...outcome,
    occurrence: { generation: 0, nth: 1 },
  });
  return outcome.event === 'rendition_available' ? 'available' : 'failed';
}
