import {
  CancellationScope,
  condition,
  isCancellation,
  proxyActivities,
  type ActivityFailure,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { failureType, RETRY_UNTIL_IT_PASSES } from './sessionActivities';
import type { SessionRun } from './sessionRun';
import { emptyPresence } from '../core/session/media';

/** Opening and closing a room: a few requests to the media server, retried until it answers. */
const rooms = proxyActivities<Activities>({ startToCloseTimeout: '30s', retry: RETRY_UNTIL_IT_PASSES });

/** The watch lasts as long as the act; its heartbeats move it to another worker if this one dies. */
const watch = proxyActivities<Activities>({
  startToCloseTimeout: '24h',
  heartbeatTimeout: '10s',
  retry: RETRY_UNTIL_IT_PASSES,
});

/** Composing an hour of video takes minutes; heartbeats tell a dead worker's attempt from a slow one. */
const making = proxyActivities<Activities>({
  startToCloseTimeout: '6h',
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
      });
    await Promise.race([lost, condition(actEnded)]);
    media.open = false;
    media.presence = emptyPresence();
    if (actEnded()) watching.cancel();
    else run.events.queue('recording_interrupted', { segment, reason: 'the media server lost the room' });
    await rooms.closeRoom({ sessionId, segment });
  }
}

/**
 * The recording of the act made into its file and stored; its outcome published. One that cannot be
 * made is `failed` with its reason, never a silent gap: the certificate then states no recording.
 */
export async function keepRecording(run: SessionRun, sessionId: string): Promise<void> {
  if (run.media.segment === 0) return;
  try {
    const made = await making.makeRecording({ sessionId });
    await run.events.publish('recording_available', {
      sha256: made.sha256,
      duration_seconds: made.durationSeconds,
      size_bytes: made.sizeBytes,
    });
  } catch (err) {
    if (failureType(err) !== 'RecordingNotMade') throw err;
    await run.events.publish('recording_failed', { reason: (err as ActivityFailure).cause!.message });
  }
}
