import crypto from 'node:crypto';
import type { RTCIceServerConfig, TurnConfig } from '../mediaConfig';

/**
 * A TURN credential for one person in one room, in coturn's REST API scheme (`use-auth-secret`): the
 * username is `<expiry in Unix seconds>:<who>`, the credential the base64 HMAC-SHA1 of it under the shared
 * secret. coturn checks both at every allocation and refresh: it lapses on its own, and names who used it.
 */
export function turnServerFor(turn: TurnConfig, who: string, now = Date.now()): RTCIceServerConfig {
  const username = `${Math.floor(now / 1000) + turn.ttlSeconds}:${who}`;
  const credential = crypto.createHmac('sha1', turn.secret).update(username).digest('base64');
  return { urls: turn.urls, username, credential };
}

/** The ICE servers one room pass carries: the configured STUN servers, and TURN with its own credential. */
export const iceServersFor = (stun: RTCIceServerConfig[], turn: TurnConfig | undefined, who: string) =>
  turn ? [...stun, turnServerFor(turn, who)] : stun;
