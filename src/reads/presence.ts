import type { Sequelize } from 'sequelize';
import { queryRows } from '../db/query';
import type { MediaIdentity } from '../../core/session/media';

/** The room's name for a person of an event's data (`notary`, `signer-0`). */
const identityOf = (role: string, index: number | string | null) =>
  (role === 'notary' ? 'notary' : `${role}-${index}`) as MediaIdentity;

/** Contract §8: whether a participant is on camera now in the act's room, and since when. */
export interface Presence {
  on_camera: boolean;
  since: string | null;
}

/**
 * Each participant's presence in the room open now, as the session published it (its
 * `participant_connected` and `participant_disconnected` events of that room's segment): the last one of
 * each person says. `of` answers off camera for a person who has not appeared there.
 */
export async function presenceInRoom(sequelize: Sequelize, sessionId: string) {
  const rows = await queryRows<{ role: string; index: string | null; event: string; created_at: Date }>(
    sequelize,
    `SELECT DISTINCT ON (e.payload -> 'data' ->> 'role', e.payload -> 'data' ->> 'index')
            e.payload -> 'data' ->> 'role' AS role, e.payload -> 'data' ->> 'index' AS index, e.event, e.created_at
       FROM events e
      WHERE e.session_id = $1 AND e.event IN ('participant_connected', 'participant_disconnected')
        AND (e.payload -> 'data' ->> 'segment')::int =
            (SELECT max(segment) FROM media_rooms WHERE session_id = $1 AND closed_at IS NULL)
      ORDER BY e.payload -> 'data' ->> 'role', e.payload -> 'data' ->> 'index', e.created_at DESC, e.id DESC`,
    { bind: [sessionId] },
  );
  const last = new Map(rows.map((r) => [`${r.role}-${r.index ?? ''}`, r]));
  return {
    /** Who is on camera, as the room's media identities (`notary`, `signer-0`). */
    onCamera: (): MediaIdentity[] =>
      rows.filter((r) => r.event === 'participant_connected').map((r) => identityOf(r.role, r.index)),
    of(p: { role: string; index: number | null }): Presence {
      const seen = last.get(`${p.role}-${p.index ?? ''}`);
      return seen?.event === 'participant_connected'
        ? { on_camera: true, since: new Date(seen.created_at).toISOString() }
        : { on_camera: false, since: null };
    },
  };
}

/** A stretch of time someone was on camera in one room (the media server's times). */
export interface OnCameraInterval {
  from: string;
  to: string;
}

/**
 * Each person's intervals on camera in one segment of the act, from the events the session published
 * (`at`: the media server's time); one still open when the room closed ends at `closedAt`.
 */
export async function intervalsOnCamera(
  sequelize: Sequelize,
  sessionId: string,
  segment: number,
  closedAt: string,
): Promise<Map<MediaIdentity, OnCameraInterval[]>> {
  const rows = await queryRows<{ event: string; role: string; index: number | null; at: string }>(
    sequelize,
    `SELECT e.event, e.payload -> 'data' ->> 'role' AS role, (e.payload -> 'data' ->> 'index')::int AS index,
            coalesce(e.payload -> 'data' ->> 'at', e.payload ->> 'created_at') AS at
       FROM events e
      WHERE e.session_id = $1 AND e.event IN ('participant_connected', 'participant_disconnected')
        AND (e.payload -> 'data' ->> 'segment')::int = $2
      ORDER BY e.created_at, e.id`,
    { bind: [sessionId, segment] },
  );
  const intervals = new Map<MediaIdentity, OnCameraInterval[]>();
  const open = new Map<MediaIdentity, string>();
  for (const row of rows) {
    const identity = identityOf(row.role, row.index);
    if (row.event === 'participant_connected') open.set(identity, row.at);
    else if (open.has(identity)) {
      intervals.set(identity, [
        ...(intervals.get(identity) ?? []),
        { from: open.get(identity)!, to: row.at },
      ]);
      open.delete(identity);
    }
  }
  for (const [identity, from] of open)
    intervals.set(identity, [...(intervals.get(identity) ?? []), { from, to: closedAt }]);
  return intervals;
}
