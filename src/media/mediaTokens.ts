import crypto from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { isMediaIdentity, type MediaIdentity } from '../../core/session/media';

/** What a media token lets its holder do: be `identity`, shown as `name`, in the live room of one session. */
export interface MediaGrant {
  sessionId: string;
  identity: MediaIdentity;
  name: string;
  /** A console sign-in's token: the room closes to it when that sign-in ends. */
  signInId?: string;
}

const AUDIENCE = 'media-room';
/**
 * Short-lived tokens for the signaling proxy, signed with a key of their own derived from the JWT secret:
 * one session's room and one identity each, so a token leaked from one page opens nothing else.
 */
export class MediaTokens {
  private readonly key: Uint8Array;

  constructor(
    jwtSecret: Uint8Array,
    private readonly ttlSeconds: number,
  ) {
    this.key = crypto.createHmac('sha256', Buffer.from(jwtSecret)).update('media-room-tokens').digest();
  }

  async mint(grant: MediaGrant, now = Date.now()): Promise<{ token: string; expiresAt: Date }> {
    const issuedAt = Math.floor(now / 1000);
    const token = await new SignJWT({
      sid: grant.sessionId,
      name: grant.name,
      ...(grant.signInId ? { sin: grant.signInId } : {}),
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(grant.identity)
      .setAudience(AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + this.ttlSeconds)
      .sign(this.key);
    return { token, expiresAt: new Date((issuedAt + this.ttlSeconds) * 1000) };
  }

  /**
   * The grant of a valid token, unexpired or within `graceSeconds` of its expiry; undefined for anything
   * else. The grace lets a connection made with a fresh token go on; entering a room needs a fresh one.
   */
  async verify(token: unknown, graceSeconds = 0): Promise<MediaGrant | undefined> {
    if (typeof token !== 'string' || token.length > 2_000) return undefined;
    try {
      const { payload } = await jwtVerify(token, this.key, {
        audience: AUDIENCE,
        algorithms: ['HS256'],
        clockTolerance: graceSeconds,
      });
      if (typeof payload.sid !== 'string' || !isMediaIdentity(payload.sub)) return undefined;
      const signInId = typeof payload.sin === 'string' ? payload.sin : undefined;
      return { sessionId: payload.sid, identity: payload.sub, name: String(payload.name ?? ''), signInId };
    } catch (err) {
      if (err instanceof joseErrors.JOSEError) return undefined;
      throw err;
    }
  }
}
