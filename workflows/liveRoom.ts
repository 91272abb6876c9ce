import {
  CancellationScope,
  condition,
  isCancellation,
  ParentClosePolicy,
  proxyActivities,
  startChild,
  workflowInfo,
  type ActivityFailure,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Activities, MediaMakingActivities } from '../activities';
import { mediaQueuesOf } from '../core/temporal/mediaQueues';
import { compositionWorkflowIdOf } from '../core/temporal/workflows';
import { recordingCompositionWorkflow } from './recordingComposition';
import { failureType, RETRY_UNTIL_IT_PASSES } from './sessionActivities';
import type { SessionRun } from './sessionRun';
import { emptyPresence } from '../core/session/media';

/**
 * Opening and closing a room: a few requests to the media server, retried until it answers, at most 2 s
 * apart: the participants wait in the room for it, and a back-off of minutes would outlast its restart.
 */
const rooms = proxyActivities<Activities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '2s' },
});

/** The watch lasts as long as the act; its heartbeats move it to another worker if this one dies. */
const watch = proxyActivities<Activities>({
  startToCloseTimeout: '24h',
  heartbeatTimeout: '10s',
  retry: RETRY_UNTIL_IT_PASSES,
});

/** The evidence is a copy of the streams, seconds per hour of act; heartbeats tell a dead worker's attempt. */
const evidence = () =>
  proxyActivities<MediaMakingActivities>({
    taskQueue: mediaQueuesOf(workflowInfo().taskQueue).evidence,
    startToCloseTimeout: '1h',
    heartbeatTimeout: '30s',
    retry: RETRY_UNTIL_IT_PASSES,
  });

/**
 * The live act's room, from the notary's start until the act ends: the room is open and records every
 * stream in it; when the media server loses it (a restart), the next segment's room opens and the
 * participants' pages reconnect to it. Resolves once the act has ended and the last room is closed.
 */
export async function holdLiveRoom(
  run: SessionRun,
  sessionId: string,
  actEnded: () => boolean,
): Promise<void> {
  const { media } = run;
  while (!actEnded()) {
    media.segment += 1;
    const segment = media.segment;
    await rooms.openRoom({ sessionId, segment });
    media.open = true;
    run.events.queue('recording_started', { segment });
    const watching = new CancellationScope();
    const lost = watching
      .run(() => watch.watchRoom({ sessionId, segment }))
      .catch((err) => {
        if (!isCancellation(err)) throw err;
        return undefined;
      });
    const seen = await Promise.race([lost, condition(actEnded).then(() => undefined)]);
    media.open = false;
    media.presence = emptyPresence();
    if (actEnded()) watching.cancel();
    else run.events.queue('recording_interrupted', { segment, reason: 'the media server lost the room' });
    // A lost room recorded until it was last seen there, not until the service noticed.
    await rooms.closeRoom({ sessionId, segment, endedAt: seen?.lastSeenAt });
  }
}

/**
 * The recording of the act made into its evidence file and stored; its outcome published; its composed
 * grid handed to a workflow of its own, which the session does not wait for. One that cannot be made is
 * `failed` with its reason, never a silent gap: the certificate then states no recording.
 */
export async function keepRecording(run: SessionRun, sessionId: string): Promise<void> {
  if (run.media.segment === 0) return;
  try {
    const made = await evidence().makeEvidence({ sessionId });
    await run.events.publish('recording_available', {
      sha256: made.sha256,
      duration_seconds: made.durationSeconds,
      size_bytes: made.sizeBytes,
    });
    await composeLater(sessionId, made.recordingId);
  } catch (err) {
    if (failureType(err) !== 'RecordingNotMade') throw err;
    await run.events.publish('recording_failed', { reason: (err as ActivityFailure).cause!.message });
  }
}

async function composeLater(sessionId: string, recordingId: string): Promise<void> {
  try {
    await startChild(recordingCompositionWorkflow, {
      workflowId: compositionWorkflowIdOf(sessionId),
      args: [{ sessionId, recordingId }],
      // The view is made on its own time: it must never hold the session back, nor die with it.
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  } catch (err) {
    // Started before, by a run an operator has since reset: that one carries the composing on.
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
