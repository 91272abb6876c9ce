import type { Sequelize } from 'sequelize';
import { conflict, DomainError, gone, refused, unauthenticated } from '../domain/errors';
import type { MediaGrant, MediaTokens } from './mediaTokens';
import { openRoomOf } from './rooms';
import { MediaHolds } from './mediaHolds';
import { signInEnd } from '../auth/consoleSignIns';
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

interface JanusAnswer {
  janus?: string;
  data?: { id?: number | string };
  error?: { code?: number };
}

const tooMany = () =>
  new DomainError('conflict', 'This connection already holds every stream its room needs; detach one first');

/**
 * The signaling proxy between the pages and Janus: the pages speak Janus's HTTP API to the service,
 * which checks the media token, vets each request (src/media/signalingProxy.ts) and passes it on. Media
 * itself never comes here: it flows between the browsers and Janus.
 */
export class Signaling {
  private readonly holds: MediaHolds;

  constructor(
    private readonly sequelize: Sequelize,
    private readonly tokens: MediaTokens,
    private readonly serverUrl: () => string,
  ) {
    this.holds = new MediaHolds(sequelize);
  }

  async post(path: JanusPath, body: unknown): Promise<unknown> {
    const creating = !path.session;
    const token = (body as { token?: unknown } | null)?.token;
    const grant = await this.grantOf(token, creating ? 0 : CONNECTION_GRACE_SECONDS);
    if (!creating) await this.heldOrNotFound(grant, path);
    const isJoin = (body as { body?: { request?: unknown } } | null)?.body?.request === 'join';
    if (creating || isJoin) await this.signInOpen(grant);
    const room = isJoin ? await this.roomToJoin(token, grant) : undefined;
    let vetted: Record<string, unknown>;
    try {
      vetted = vetSignal(body, grant, () => room!);
    } catch (err) {
      if (err instanceof RefusedSignal) throw refused(err.message);
      throw err;
    }
    if (vetted.janus === 'attach' && (await this.holds.handlesLeft(grant.sessionId, path.session!)) <= 0)
      throw tooMany();
    const answer = (await this.forward(
      this.urlOf(path),
      { method: 'POST', body: JSON.stringify(vetted) },
      REQUEST_TIMEOUT_MS,
    )) as JanusAnswer | undefined;
    if (!answer)
      throw new DomainError('unavailable', 'The media server gave no answer; retry in a moment', {}, 1);
    await this.keepTrack(grant, path, String(vetted.janus), answer);
    return answer;
  }

  async poll(session: string, query: { token?: unknown; maxev?: unknown }): Promise<unknown> {
    const grant = await this.grantOf(query.token, CONNECTION_GRACE_SECONDS);
    await this.heldOrNotFound(grant, { session });
    const maxev = Math.min(10, Math.max(1, Number(query.maxev) || 1));
    // A poll cut off as its connection ends (the page left) has no events to give: an empty list.
    const events =
      (await this.forward(`${this.urlOf({ session })}?maxev=${maxev}`, { method: 'GET' }, POLL_TIMEOUT_MS)) ??
      [];
    // janus.js polls again forever on this answer; as an HTTP failure it gives up and the page reconnects.
    if ((events as JanusAnswer).error?.code === NO_SUCH_SESSION) {
      await this.holds.closed(session);
      throw gone('The media server no longer has this connection; connect again');
    }
    return events;
  }

  /** What Janus opened or closed for this grant, so that it acts only on its own and within its limits. */
  private async keepTrack(grant: MediaGrant, path: JanusPath, verb: string, answer: JanusAnswer) {
    if (answer.janus !== 'success') return;
    const id = answer.data?.id === undefined ? undefined : String(answer.data.id);
    if (verb === 'create' && id) {
      for (const old of await this.holds.opened(grant, id))
        await this.sendQuietly({ session: old }, { janus: 'destroy', transaction: 'evicted' });
    } else if (verb === 'attach' && id) {
      if (await this.holds.attached(grant.sessionId, path.session!, id)) return;
      await this.sendQuietly({ ...path, handle: id }, { janus: 'detach', transaction: 'over-limit' });
      throw tooMany();
    } else if (verb === 'detach' && path.handle) await this.holds.detached(path.handle);
    else if (verb === 'destroy' && !path.handle) await this.holds.closed(path.session!);
  }

  /** Another holder's Janus ids are answered as ids that do not exist: they reveal nothing. */
  private async heldOrNotFound(grant: MediaGrant, path: JanusPath): Promise<void> {
    this.urlOf(path); // an id not of Janus's shape is a 404 before any lookup
    if (!(await this.holds.heldBy(grant, path.session!, path.handle)))
      throw new DomainError('not_found', 'Not found');
  }

  /** A notary's or witness's token serves only while the console sign-in that asked for it lasts. */
  private async signInOpen(grant: MediaGrant): Promise<void> {
    if (grant.signInId && !(await signInEnd(this.sequelize, grant.signInId))) throw unauthenticated();
  }

  private async sendQuietly(path: JanusPath, message: Record<string, unknown>): Promise<void> {
    await this.forward(
      this.urlOf(path),
      { method: 'POST', body: JSON.stringify(message) },
      REQUEST_TIMEOUT_MS,
    )
      // Janus may have dropped it already (timed out, restarted): what the proxy forgets is gone either way.
      .catch(() => undefined);
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

  /** Janus's answer; undefined when it gave none that is JSON. */
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
    // Janus may end a connection's request with no answer at all (its session destroyed meanwhile).
    const text = await response.text().catch(() => '');
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  }
}
