import fs from 'node:fs';
import { activityInfo, ApplicationFailure, Context, heartbeat } from '@temporalio/activity';
import type { ActivityDependencies } from './dependencies';
import { whileHeartbeating } from './heartbeat';
import { JanusRequestError, NO_SUCH_ROOM, ROOM_EXISTS } from '../src/media/janusAdmin';
import { markRoomClosed, roomOfSegment } from '../src/media/rooms';
import { beginRecording, markFailed } from '../src/media/recordings';
import { makeRecording, type MadeRecording } from '../src/media/recordingMaker';
import { MediaToolError } from '../src/media/mediaTools';

/** How long the media server may not answer before its room counts as lost (it is restarting, or gone). */
const UNREACHABLE_AFTER_MS = 3_000;
const WATCH_EVERY_MS = 1_000;
/** Attempts at making the recording's file that fail for a reason other than an outage. */
const MAKE_ATTEMPTS = 3;

/** Publishers in a room: as many as a session can have on camera (signers, witnesses, the notary). */
const PUBLISHERS = 24;

/** A room that records every stream in it into the room's own directory, and that only the service edits. */
const recordedRoom = (
  room: { room: string; secret: string; recording_dir: string },
  description: string,
) => ({
  request: 'create',
  room: room.room,
  description,
  secret: room.secret,
  is_private: true,
  publishers: PUBLISHERS,
  bitrate: 768_000,
  audiocodec: 'opus',
  videocodec: 'vp8',
  record: true,
  rec_dir: room.recording_dir,
  lock_record: true,
  notify_joining: true,
});

/** The live act's room on the media server, and its recording: the workflow owns both through these. */
export function mediaActivities({ sequelize, config, media, objectStore }: ActivityDependencies) {
  return {
    /**
     * Opens segment `segment`'s room, recording every stream in it into the room's own directory; the
     * recording of the act begins with the first. A retry finds the room already there.
     */
    async openRoom({ sessionId, segment }: { sessionId: string; segment: number }): Promise<void> {
      const room = await roomOfSegment(sequelize, config.media.recordingsDir, sessionId, segment);
      await fs.promises.mkdir(room.recording_dir, { recursive: true });
      try {
        await media.videoroom(recordedRoom(room, `Notarization session ${sessionId}, segment ${segment}`));
      } catch (err) {
        if (!(err instanceof JanusRequestError && err.code === ROOM_EXISTS)) throw err;
      }
      if (segment === 1) await beginRecording(sequelize, sessionId);
    },

    /**
     * Keeps watch on the room until the media server loses it (a restart drops every room) or stops
     * answering; the workflow cancels the watch when the act ends. Heartbeats carry the watch over a
     * worker's restart.
     */
    async watchRoom({ sessionId, segment }: { sessionId: string; segment: number }): Promise<'lost'> {
      const room = await roomOfSegment(sequelize, config.media.recordingsDir, sessionId, segment);
      let unreachableSince: number | undefined;
      for (;;) {
        heartbeat();
        try {
          const answer = await media.videoroom<{ exists: boolean }>({ request: 'exists', room: room.room });
          if (!answer.exists) return 'lost';
          unreachableSince = undefined;
        } catch (err) {
          if (err instanceof JanusRequestError) throw err;
          unreachableSince ??= Date.now();
          if (Date.now() - unreachableSince >= UNREACHABLE_AFTER_MS) return 'lost';
        }
        await Context.current().sleep(WATCH_EVERY_MS);
      }
    },

    /** Ends the room's recording; a media server that no longer has the room has ended it already. */
    async closeRoom({ sessionId, segment }: { sessionId: string; segment: number }): Promise<void> {
      const room = await roomOfSegment(sequelize, config.media.recordingsDir, sessionId, segment);
      try {
        await media.videoroom({ request: 'destroy', room: room.room, secret: room.secret });
      } catch (err) {
        const gone = err instanceof JanusRequestError && err.code === NO_SUCH_ROOM;
        if (!gone && activityInfo().attempt < 5) throw err;
      }
      await markRoomClosed(sequelize, sessionId, segment);
    },

    /**
     * The recording's file, made and stored (src/media/recordingMaker.ts). Outages are retried until they
     * pass; a media tool that fails on the files, MAKE_ATTEMPTS times, then the recording is `failed` with
     * the reason, its raw files kept where the media server wrote them, and `RecordingNotMade` says so.
     */
    async makeRecording({ sessionId }: { sessionId: string }): Promise<MadeRecording> {
      try {
        return await whileHeartbeating(() =>
          makeRecording(
            { sequelize, store: objectStore, retention: config.media.recordingRetention },
            sessionId,
          ),
        );
      } catch (err) {
        // Only the media tools' failures are the recording's own; storage and database outages pass.
        if (!(err instanceof MediaToolError) || activityInfo().attempt < MAKE_ATTEMPTS) throw err;
        const reason = `the recording could not be made: ${(err as Error).message.split('\n')[0]}`;
        await markFailed(sequelize, sessionId, reason);
        throw ApplicationFailure.nonRetryable(reason, 'RecordingNotMade');
      }
    },
  };
}
