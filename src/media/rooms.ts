import crypto from 'node:crypto';
import path from 'node:path';
import type { Sequelize } from 'sequelize';
import { execute, queryRows } from '../db/query';
import { roomNameOf } from '../../core/session/media';

/** One room of a session's live act, as `media_rooms` keeps it: `opened_at` once the media server has it. */
export interface MediaRoom {
  session_id: string;
  segment: number;
  room: string;
  secret: string;
  recording_dir: string;
  opened_at: Date | null;
  closed_at: Date | null;
}

/** A room the media server has opened: its segment of the act began then. */
export type OpenedRoom = MediaRoom & { opened_at: Date };

/**
 * The room of a segment, recorded once: a retried opening finds the same name, secret and directory,
 * so the media server is asked for the same room again.
 */
export async function roomOfSegment(
  sequelize: Sequelize,
  recordingsDir: string,
  sessionId: string,
  segment: number,
): Promise<MediaRoom> {
  await execute(
    sequelize,
    `INSERT INTO media_rooms (session_id, segment, room, secret, recording_dir) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (session_id, segment) DO NOTHING`,
    {
      bind: [
        sessionId,
        segment,
        roomNameOf(sessionId, segment),
        crypto.randomBytes(18).toString('base64url'),
        path.join(recordingsDir, sessionId, `segment-${segment}`),
      ],
    },
  );
  const [room] = await queryRows<MediaRoom>(
    sequelize,
    'SELECT * FROM media_rooms WHERE session_id = $1 AND segment = $2',
    { bind: [sessionId, segment] },
  );
  return room;
}

/** The segment begins: the media server has the room (a retried opening keeps the first time). */
export async function markRoomOpened(
  sequelize: Sequelize,
  sessionId: string,
  segment: number,
): Promise<void> {
  await execute(
    sequelize,
    'UPDATE media_rooms SET opened_at = coalesce(opened_at, now()) WHERE session_id = $1 AND segment = $2',
    { bind: [sessionId, segment] },
  );
}

/** The room the session's participants are to be in now, if the media server has one open. */
export async function openRoomOf(sequelize: Sequelize, sessionId: string): Promise<OpenedRoom | undefined> {
  const [room] = await queryRows<OpenedRoom>(
    sequelize,
    `SELECT * FROM media_rooms WHERE session_id = $1 AND opened_at IS NOT NULL AND closed_at IS NULL
     ORDER BY segment DESC LIMIT 1`,
    { bind: [sessionId] },
  );
  return room;
}

/** The session whose room this is, while it is open: the media server's events name rooms. */
export async function sessionOfOpenRoom(
  sequelize: Sequelize,
  room: string,
): Promise<{ sessionId: string; segment: number } | undefined> {
  const [row] = await queryRows<{ session_id: string; segment: number }>(
    sequelize,
    'SELECT session_id, segment FROM media_rooms WHERE room = $1 AND closed_at IS NULL',
    { bind: [room] },
  );
  return row && { sessionId: row.session_id, segment: row.segment };
}

/** The rooms the act has had, each from when the media server opened it. */
export async function roomsOf(sequelize: Sequelize, sessionId: string): Promise<OpenedRoom[]> {
  return queryRows<OpenedRoom>(
    sequelize,
    'SELECT * FROM media_rooms WHERE session_id = $1 AND opened_at IS NOT NULL ORDER BY segment',
    { bind: [sessionId] },
  );
}

/** The segment ends: at `endedAt` (when a lost room was last known to be there), else now. */
export async function markRoomClosed(
  sequelize: Sequelize,
  sessionId: string,
  segment: number,
  endedAt?: string,
): Promise<void> {
  await execute(
    sequelize,
    `UPDATE media_rooms
     SET closed_at = coalesce(closed_at, greatest(opened_at, coalesce($3::timestamptz, now())))
     WHERE session_id = $1 AND segment = $2`,
    { bind: [sessionId, segment, endedAt ?? null] },
  );
}
