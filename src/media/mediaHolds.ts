import type { Sequelize } from 'sequelize';
import { execute, queryRows } from '../db/query';
import type { MediaGrant } from './mediaTokens';

/**
 * Janus connections one person keeps in one room at a time: a reload or a second tab opens another
 * before the first has timed out; the oldest beyond this is closed.
 */
export const CONNECTIONS_PER_PERSON = 2;

/**
 * Handles one connection may hold in a room of `people`: its publisher, and one subscription to each
 * publisher of the others, who may each have a second connection open for a moment (a reload).
 */
export const handlesPerConnection = (people: number) => 1 + CONNECTIONS_PER_PERSON * Math.max(0, people - 1);

/**
 * The Janus sessions and handles the signaling proxy opened, each with the media token's session and
 * identity that opened it: a token acts only on its own, and one person holds no more of the media
 * server's ports than their room needs.
 */
export class MediaHolds {
  constructor(private readonly sequelize: Sequelize) {}

  /** Whether `grant` opened this Janus session (and, if named, this handle in it). */
  async heldBy(grant: MediaGrant, janusSession: string, handle?: string): Promise<boolean> {
    const rows = await queryRows<object>(
      this.sequelize,
      `SELECT 1 FROM media_connections c
        WHERE c.janus_session = $1 AND c.session_id = $2 AND c.identity = $3
          AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM media_handles h
                                            WHERE h.janus_session = c.janus_session AND h.handle = $4))`,
      { bind: [janusSession, grant.sessionId, grant.identity, handle ?? null] },
    );
    return rows.length > 0;
  }

  /** Records a new connection; answers the holder's older ones beyond the limit, forgotten here, to close. */
  async opened(grant: MediaGrant, janusSession: string): Promise<string[]> {
    await execute(
      this.sequelize,
      'INSERT INTO media_connections (janus_session, session_id, identity) VALUES ($1, $2, $3)',
      { bind: [janusSession, grant.sessionId, grant.identity] },
    );
    const evicted = await queryRows<{ janus_session: string }>(
      this.sequelize,
      `DELETE FROM media_connections WHERE janus_session IN (
         SELECT janus_session FROM media_connections WHERE session_id = $1 AND identity = $2
          ORDER BY seq DESC OFFSET $3)
       RETURNING janus_session`,
      { bind: [grant.sessionId, grant.identity, CONNECTIONS_PER_PERSON] },
    );
    return evicted.map((e) => e.janus_session);
  }

  /** How many more handles this connection may open in its session's room. */
  async handlesLeft(sessionId: string, janusSession: string): Promise<number> {
    const [row] = await queryRows<{ people: number; held: number }>(
      this.sequelize,
      `SELECT (SELECT count(*) FROM participants WHERE session_id = $1)::int + 1 AS people,
              (SELECT count(*) FROM media_handles WHERE janus_session = $2)::int AS held`,
      { bind: [sessionId, janusSession] },
    );
    return handlesPerConnection(row.people) - row.held;
  }

  /**
   * Records a new handle; false (and forgotten) when it ranks past the limit among its connection's
   * handles, as concurrent attaches may take it.
   */
  async attached(sessionId: string, janusSession: string, handle: string): Promise<boolean> {
    await execute(this.sequelize, 'INSERT INTO media_handles (handle, janus_session) VALUES ($1, $2)', {
      bind: [handle, janusSession],
    });
    const [row] = await queryRows<{ rank: number; people: number }>(
      this.sequelize,
      `SELECT (SELECT count(*) FROM media_handles WHERE janus_session = $1
                 AND seq <= (SELECT seq FROM media_handles WHERE handle = $2))::int AS rank,
              (SELECT count(*) FROM participants WHERE session_id = $3)::int + 1 AS people`,
      { bind: [janusSession, handle, sessionId] },
    );
    if (row.rank <= handlesPerConnection(row.people)) return true;
    await this.detached(handle);
    return false;
  }

  async detached(handle: string): Promise<void> {
    await execute(this.sequelize, 'DELETE FROM media_handles WHERE handle = $1', { bind: [handle] });
  }

  async closed(janusSession: string): Promise<void> {
    await execute(this.sequelize, 'DELETE FROM media_connections WHERE janus_session = $1', {
      bind: [janusSession],
    });
  }
}
