import type { OnCameraInterval } from '../reads/presence';
import type { Sequelize } from 'sequelize';
import type { CalendarSpan } from '../mediaConfig';
import { execute, queryRows } from '../db/query';
import { NETWORK_NOTARY_NAME, SESSION_NOTARY_JOINS } from '../db/sessionNotary';
import type { MediaIdentity } from '../../core/session/media';

export type RecordingStatus = 'recording' | 'processing' | 'available' | 'failed';

/** One room's part of the recording, as `recordings.segments` lists it. */
export interface RecordingSegment {
  segment: number;
  started_at: string;
  ended_at: string | null;
  duration_seconds: number | null;
  /** Who was in the room, and when each was on camera (contract §8). */
  participants: Array<{ identity: MediaIdentity; intervals: OnCameraInterval[] }>;
  /** The media server's own per-stream files, kept beside the composite. */
  tracks: Array<{ identity: MediaIdentity; kind: 'audio' | 'video'; object_key: string; size_bytes: number }>;
}

export interface RecordingRow {
  id: string;
  session_id: string;
  status: RecordingStatus;
  content_type: string | null;
  duration_seconds: string | null;
  size_bytes: string | null;
  sha256: string | null;
  object_key: string | null;
  started_at: Date;
  ended_at: Date | null;
  segments: RecordingSegment[];
  failure_reason: string | null;
  retain_until: Date | null;
  /** Once `available`, when it became so: nothing describing a stored recording changes after. */
  updated_at: Date;
}

/** The recording of a session's act, from its first room's opening; a retried start keeps the first. */
export async function beginRecording(sequelize: Sequelize, sessionId: string): Promise<void> {
  await execute(
    sequelize,
    `INSERT INTO recordings (session_id, status, started_at) VALUES ($1, 'recording', now())
     ON CONFLICT (session_id) DO NOTHING`,
    { bind: [sessionId] },
  );
}

export async function recordingOf(
  sequelize: Sequelize,
  sessionId: string,
): Promise<RecordingRow | undefined> {
  const [row] = await queryRows<RecordingRow>(sequelize, 'SELECT * FROM recordings WHERE session_id = $1', {
    bind: [sessionId],
  });
  return row;
}

export async function recordingById(sequelize: Sequelize, id: string): Promise<RecordingRow | undefined> {
  const [row] = await queryRows<RecordingRow>(sequelize, 'SELECT * FROM recordings WHERE id = $1', {
    bind: [id],
  });
  return row;
}

/** The act is over: no room records any more; the recording is being made into its file. */
export async function markProcessing(sequelize: Sequelize, sessionId: string): Promise<void> {
  await execute(
    sequelize,
    `UPDATE recordings SET status = 'processing', updated_at = now(),
            ended_at = coalesce(ended_at, (SELECT max(closed_at) FROM media_rooms WHERE session_id = $1), now())
      WHERE session_id = $1 AND status = 'recording'`,
    { bind: [sessionId] },
  );
}

export async function markAvailable(
  sequelize: Sequelize,
  sessionId: string,
  made: {
    objectKey: string;
    contentType: string;
    durationSeconds: number;
    sizeBytes: number;
    sha256: string;
    segments: RecordingSegment[];
    retention: CalendarSpan;
  },
): Promise<void> {
  await execute(
    sequelize,
    `UPDATE recordings SET status = 'available', object_key = $2, content_type = $3, duration_seconds = $4,
            size_bytes = $5, sha256 = $6, segments = $7, failure_reason = NULL, updated_at = now(),
            retain_until = ((ended_at AT TIME ZONE 'UTC') + make_interval(months => $8, secs => $9)) AT TIME ZONE 'UTC'
      WHERE session_id = $1 AND status <> 'available'`,
    {
      bind: [
        sessionId,
        made.objectKey,
        made.contentType,
        made.durationSeconds,
        made.sizeBytes,
        made.sha256,
        JSON.stringify(made.segments),
        made.retention.months,
        made.retention.seconds,
      ],
    },
  );
}

export async function markFailed(sequelize: Sequelize, sessionId: string, reason: string): Promise<void> {
  await execute(
    sequelize,
    `UPDATE recordings SET status = 'failed', failure_reason = $2, updated_at = now()
      WHERE session_id = $1 AND status <> 'available'`,
    { bind: [sessionId, reason.slice(0, 1000)] },
  );
}

/** How each person in the room is labelled in the composite: their role and name. */
export async function roomLabels(
  sequelize: Sequelize,
  sessionId: string,
): Promise<Map<MediaIdentity, string>> {
  const rows = await queryRows<{ identity: MediaIdentity; label: string }>(
    sequelize,
    `SELECT p.role || '-' || p.index AS identity,
            initcap(p.role) || ' ' || (p.index + 1) || ': ' ||
              coalesce(nullif(trim(coalesce(p.first_name, '') || ' ' || coalesce(p.last_name, '')), ''), p.email) AS label
       FROM participants p WHERE p.session_id = $1
     UNION ALL
     SELECT 'notary', 'Notary: ' || coalesce(s.act_notary ->> 'name', c.first_name || ' ' || c.last_name, ${NETWORK_NOTARY_NAME}, '')
       FROM sessions s ${SESSION_NOTARY_JOINS} WHERE s.id = $1`,
    { bind: [sessionId] },
  );
  return new Map(rows.map((r) => [r.identity, r.label]));
}
