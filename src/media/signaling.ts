import type { Sequelize } from 'sequelize';
import { conflict, DomainError, gone, refused, unauthenticated } from '../domain/errors';
import type { MediaGrant, MediaTokens } from './mediaTokens';
import { openRoomOf } from './rooms';
import { RefusedSignal, vetSignal } from './signalingProxy';

/** A connection made with a fresh token goes on past its expiry for this long; a room needs a fresh one. */
const CONNECTION_GRACE_SECONDS = 12 * 3600;
/** Janus's answer to a session it does not have (it restarted, or the session timed out). */
const NO_SUCH_SESSION = 458;
/** Janus holds a long poll up to 30 s. */
const POLL_TIMEOUT_MS = 40_000;
const REQUEST_TIMEOUT_MS = 10_000;

export interface JanusPath {
  session?: string;
  handle?: string;
}

const JANUS_ID = /^\d{1,20}$/;

/**
 * The signaling proxy between the pages and Janus: the pages speak Janus's HTTP API to the service,
 * which checks the media token, vets each request (src/media/signalingProxy.ts) and passes it on. Media
 * itself never comes here: it flows between the browsers and Janus.
 */
export class Signaling {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly tokens: MediaTokens,
    private readonly serverUrl: () => string,
  ) {}

  async post(path: JanusPath, body: unknown): Promise<unknown> {
    const creating = !path.session;
    const token = (body as { token?: unknown } | null)?.token;
    const grant = await this.grantOf(token, creating ? 0 : CONNECTION_GRACE_SECONDS);
    let room: string | undefined;
    const isJoin = (body as { body?: { request?: unknown } } | null)?.body?.request === 'join';
    if (isJoin) room = await this.roomToJoin(token, grant);
    let vetted: Record<string, unknown>;
    try {
      vetted = vetSignal(body, grant, () => room!);
    } catch (err) {
      if (err instanceof RefusedSignal) throw refused(err.message);
      throw err;
    }
    return this.forward(
      `${this.urlOf(path)}`,
      { method: 'POST', body: JSON.stringify(vetted) },
      REQUEST_TIMEOUT_MS,
    );
  }

  async poll(session: string, query: { token?: unknown; maxev?: unknown }): Promise<unknown> {
    await this.grantOf(query.token, CONNECTION_GRACE_SECONDS);
    const maxev = Math.min(10, Math.max(1, Number(query.maxev) || 1));
    const events = await this.forward(
      `${this.urlOf({ session })}?maxev=${maxev}`,
      { method: 'GET' },
      POLL_TIMEOUT_MS,
    );
    // janus.js polls again forever on this answer; as an HTTP failure it gives up and the page reconnects.
    if ((events as { error?: { code?: number } }).error?.code === NO_SUCH_SESSION)
      throw gone('The media server no longer has this connection; connect again');
    return events;
  }

  private async grantOf(token: unknown, graceSeconds: number): Promise<MediaGrant> {
    const grant = await this.tokens.verify(token, graceSeconds);
    if (!grant) throw unauthenticated();
    return grant;
  }

  /** Entering the room takes an unexpired token, and the room the session has open now. */
  private async roomToJoin(token: unknown, grant: MediaGrant): Promise<string> {
    if (!(await this.tokens.verify(token))) throw unauthenticated();
    const room = await openRoomOf(this.sequelize, grant.sessionId);
    if (!room) throw conflict('The live room is not open', 1);
    return room.room;
  }

  private urlOf(path: JanusPath): string {
    const parts = [path.session, path.handle].filter((p): p is string => p !== undefined);
    if (!parts.every((p) => JANUS_ID.test(p))) throw new DomainError('not_found', 'Not found');
    return [this.serverUrl(), ...parts].join('/');
  }

  private async forward(url: string, init: RequestInit, timeoutMs: number): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(url, {
        ...init,
        headers: { 'content-type': 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      throw new DomainError('unavailable', 'The media server is unreachable; retry in a moment', {}, 2);
    }
    return response.json();
  }
}
