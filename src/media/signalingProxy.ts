import crypto from 'node:crypto';
import type { MediaGrant } from './mediaTokens';
import { opaqueIdOf } from './janusEvents';

/** A browser's request to Janus that the proxy will not pass on, and why. */
export class RefusedSignal extends Error {}

type Json = Record<string, unknown>;

const VERBS = new Set(['create', 'attach', 'message', 'trickle', 'keepalive', 'detach', 'destroy', 'hangup']);
const TOP_LEVEL = ['janus', 'transaction', 'body', 'jsep', 'candidate', 'candidates', 'plugin', 'opaque_id'];

/**
 * The videoroom requests a participant's page makes, and the fields each may carry. Creating, editing,
 * destroying or listing rooms, recording switches, forwarders and moderation are the service's alone.
 */
const REQUESTS: Record<string, readonly string[]> = {
  join: ['ptype', 'streams', 'feed', 'private_id', 'use_msid', 'autoupdate'],
  publish: ['audio', 'video', 'data', 'bitrate', 'keyframe', 'descriptions', 'audiocodec', 'videocodec'],
  configure: [
    'audio',
    'video',
    'data',
    'bitrate',
    'keyframe',
    'descriptions',
    'streams',
    'restart',
    'update',
  ],
  unpublish: [],
  start: [],
  pause: [],
  leave: [],
  subscribe: ['streams'],
  unsubscribe: ['streams'],
  update: ['subscribe', 'unsubscribe'],
  switch: ['streams'],
};

const pick = (source: Json, keys: readonly string[]): Json =>
  Object.fromEntries(keys.filter((k) => source[k] !== undefined).map((k) => [k, source[k]]));

/** How a publisher appears to the others: who they are (for their tile) and their name. */
export const displayOf = (grant: MediaGrant) =>
  JSON.stringify({ identity: grant.identity, name: grant.name });

/** A publisher's id in the room: its identity (which names its recording files) and a nonce per connection. */
const publisherIdOf = (grant: MediaGrant) =>
  `${grant.identity}~${crypto.randomBytes(6).toString('base64url')}`;

/**
 * What the proxy passes on to Janus for a page holding `grant`: the verbs a videoroom client uses, and for
 * its plugin messages only the requests above, with the room always the session's room open now and a
 * publisher's id and display name always its own. Secrets and tokens never pass.
 */
export function vetSignal(body: unknown, grant: MediaGrant, room: () => string): Json {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new RefusedSignal('Not a Janus request');
  const request = body as Json;
  if (typeof request.janus !== 'string' || !VERBS.has(request.janus))
    throw new RefusedSignal(`Janus request "${String(request.janus)}" is not allowed`);
  if (typeof request.transaction !== 'string' || request.transaction.length > 64)
    throw new RefusedSignal('A Janus request needs a transaction');
  const vetted = pick(request, TOP_LEVEL);
  if (request.janus === 'attach' && request.plugin !== 'janus.plugin.videoroom')
    throw new RefusedSignal('Only the videoroom plugin is available');
  // Media events name the handle by this, never by what the page would call it: see janusEvents.ts.
  if (request.janus === 'attach') vetted.opaque_id = opaqueIdOf(grant.sessionId, grant.identity);
  if (request.janus === 'message') vetted.body = vetMessage(request.body, grant, room);
  return vetted;
}

function vetMessage(body: unknown, grant: MediaGrant, room: () => string): Json {
  const message = (body && typeof body === 'object' ? body : {}) as Json;
  const name = String(message.request);
  // Own entries only: `__proto__` or `toString` name no request.
  const allowed = Object.hasOwn(REQUESTS, name) ? REQUESTS[name] : undefined;
  if (!allowed) throw new RefusedSignal(`Videoroom request "${name}" is not allowed`);
  const vetted: Json = { request: name, ...pick(message, allowed) };
  if (name === 'join') {
    vetted.room = room();
    if (message.ptype === 'publisher') {
      vetted.id = publisherIdOf(grant);
      vetted.display = displayOf(grant);
    } else if (message.ptype !== 'subscriber') throw new RefusedSignal('Join as a publisher or a subscriber');
  }
  return vetted;
}
