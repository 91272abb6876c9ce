import fs from 'node:fs';
import { activityInfo, Context, heartbeat } from '@temporalio/activity';
import type { ActivityDependencies } from './dependencies';
import { JanusRequestError, NO_SUCH_ROOM, ROOM_EXISTS } from '../src/media/janusAdmin';
import { markRoomClosed, markRoomOpened, roomOfSegment } from '../src/media/rooms';
import { beginRecording } from '../src/media/recordings';

/** How long the media server may not answer before its room counts as lost (it is restarting, or gone). */
const UNREACHABLE_AFTER_MS = 3_000;
const WATCH_EVERY_MS = 1_000;

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

/** The live act's room on the media server: the workflow owns it through these. */
export function mediaActivities({ sequelize, config, media }: ActivityDependencies) {
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
      await markRoomOpened(sequelize, sessionId, segment);
      if (segment === 1) await beginRecording(sequelize, sessionId);
    },

    /**
     * Keeps watch on the room until the media server loses it (a restart drops every room) or stops
     * answering; the workflow cancels the watch when the act ends. Answers when the room was last known to
     * be there: its segment may have recorded until then, no later. Heartbeats carry the watch, and that
     * time, over a worker's restart.
     */
    async watchRoom({
      sessionId,
      segment,
    }: {
      sessionId: string;
      segment: number;
    }): Promise<{ lastSeenAt: string }> {
      const room = await roomOfSegment(sequelize, config.media.recordingsDir, sessionId, segment);
      let lastSeenAt: string = activityInfo().heartbeatDetails ?? new Date().toISOString();
      let unreachableSince: number | undefined;
      for (;;) {
        heartbeat(lastSeenAt);
        const asked = new Date().toISOString();
        try {
          const answer = await media.videoroom<{ exists: boolean }>({ request: 'exists', room: room.room });
          if (!answer.exists) return { lastSeenAt };
          lastSeenAt = asked;
          unreachableSince = undefined;
        } catch (err) {
          if (err instanceof JanusRequestError) throw err;
          unreachableSince ??= Date.now();
          if (Date.now() - unreachableSince >= UNREACHABLE_AFTER_MS) return { lastSeenAt };
        }
        await Context.current().sleep(WATCH_EVERY_MS);
      }
    },

    /**
     * Ends the room's recording, at `endedAt` when the media server lost it then, or now; a media server
     * that no longer has the room has ended it already.
     */
    async closeRoom({
      sessionId,
      segment,
      endedAt,
    }: {
      sessionId: string;
      segment: number;
      endedAt?: string;
    }): Promise<void> {
      const room = await roomOfSegment(sequelize, config.media.recordingsDir, sessionId, segment);
      try {
        await media.videoroom({ request: 'destroy', room: room.room, secret: room.secret });
      } catch (err) {
        const gone = err instanceof JanusRequestError && err.code === NO_SUCH_ROOM;
        if (!gone && activityInfo().attempt < 5) throw err;
      }
      await markRoomClosed(sequelize, sessionId, segment, endedAt);
    },
  };
}
