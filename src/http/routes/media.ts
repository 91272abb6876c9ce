import crypto from 'node:crypto';
import Joi from 'joi';
import { endedLinkResponse } from './participants';
import { failBodySchema } from '../openapi/document';
import { unauthenticated } from '../../domain/errors';
import { PAGE_ROOM_STATES, type PageRoomState, type RoomAccess } from '../../media/roomAccess';
import type { Signaling } from '../../media/signaling';
import { roomEventsOf } from '../../media/janusEvents';
import type { RoomEventRelay } from '../../media/roomEventRelay';
import { signInOf, workerOf } from '../context';
import type { AppContext } from '../context';
import type { ApiRoutes, RouteDefinition } from '../routeTable';

const roomPass = Joi.object({
  response: Joi.string().valid('Pass'),
  media_token: Joi.string().description('For the signaling proxy only: this session’s live room, as you'),
  expires_at: Joi.string().isoDate().description('Enter the room before then; ask again for a new one after'),
  identity: Joi.string().description('`notary`, `signer-<index>` or `witness-<index>`'),
  display_name: Joi.string(),
  segment: Joi.number().integer().description('The room’s number: a media server restart opens the next'),
  signaling_path: Joi.string().description('Janus’s HTTP API, through the service'),
  ice_servers: Joi.array()
    .items(Joi.object().unknown(true))
    .description(
      'MEDIA_ICE_SERVERS (STUN), and with TURN_URLS and TURN_SECRET a TURN server with a credential for this pass ' +
        'alone (coturn REST API: `username` `<expiry>:<session>.<identity>`, `credential` its HMAC-SHA1 under the ' +
        'shared secret), valid TURN_CREDENTIAL_TTL (2 hours)',
    ),
  ice_transport_policy: Joi.string()
    .valid('all', 'relay')
    .description('`relay`: through TURN only (MEDIA_ICE_TRANSPORT_POLICY)'),
}).label('RoomPass');

const roomPassResponses = {
  200: { description: 'A media token for the live room', schema: roomPass },
  404: { description: 'Unknown link or session', schema: failBodySchema },
  409: {
    description:
      'Not in the room’s time or not admitted: before the notary starts, after the act, before joining and ' +
      'passing identity proofing, or a test-mode session (no media)',
    schema: failBodySchema,
  },
  503: {
    description: 'The room is opening (the notary just started, or the media server restarted): retry',
    schema: failBodySchema,
    headers: { 'Retry-After': 'Seconds' },
  },
};

const ROOM_PASS_DESCRIPTION =
  'The live room is Janus’s videoroom; pages reach it through the signaling proxy (`/media/janus`, Janus’s ' +
  'HTTP API with the media token as its `token`). Media flows between the browser and the media server; ' +
  'the room records every stream in it.';

function participantRoomRoute(access: RoomAccess): RouteDefinition<unknown, unknown, { token: string }> {
  return {
    method: 'post',
    path: '/sign/{token}/media',
    rateLimit: 'link',
    signingLink: true,
    operationId: 'participantRoomPass',
    summary: 'Enter the live room as this participant',
    description: `Once the notary has started, for a participant who joined and passed identity proofing. ${ROOM_PASS_DESCRIPTION}`,
    tags: ['Participants'],
    auth: 'none',
    params: Joi.object({ token: Joi.string().description('The participant’s signing-link token') }),
    responses: { ...roomPassResponses, 410: endedLinkResponse },
    handler: async (ctx, { params }) => {
      ctx.body = { response: 'Pass', ...(await access.forParticipant(params.token)) };
    },
  };
}

function roomStateRoute(
  access: RoomAccess,
): RouteDefinition<{ state: PageRoomState }, unknown, { token: string }> {
  return {
    method: 'post',
    path: '/sign/{token}/room_state',
    rateLimit: 'link',
    signingLink: true,
    operationId: 'participantRoomState',
    summary: 'What this participant’s page says of its live room (for the notary)',
    description:
      'The page reports its room’s state as it changes: the camera blocked, turned off, the microphone ' +
      'muted, reconnecting, live. The notary’s console shows it beside who is on camera.',
    tags: ['Participants'],
    auth: 'none',
    params: Joi.object({ token: Joi.string().description('The participant’s signing-link token') }),
    body: Joi.object({
      state: Joi.string()
        .valid(...PAGE_ROOM_STATES)
        .required(),
    }),
    acceptsBeacon: true,
    responses: {
      200: { description: 'Noted', schema: Joi.object({ response: Joi.string().valid('Pass') }) },
      404: { description: 'Unknown link', schema: failBodySchema },
      410: endedLinkResponse,
    },
    handler: async (ctx, { params, body }) => {
      await access.reportState(params.token, body.state);
      ctx.body = { response: 'Pass' };
    },
  };
}

function personRoomRoute(access: RoomAccess): RouteDefinition<unknown, unknown, { id: string }> {
  return {
    method: 'post',
    path: '/me/sessions/{id}/media',
    operationId: 'personRoomPass',
    summary: 'Enter the live room of a session you notarize or witness',
    description: `The session’s notary (team or network), or a network witness who joined. ${ROOM_PASS_DESCRIPTION}`,
    tags: ['Notary console'],
    auth: 'person',
    params: Joi.object({ id: Joi.string().description('bn_session_id') }),
    responses: roomPassResponses,
    handler: async (ctx, { params }) => {
      ctx.body = { response: 'Pass', ...(await access.forPerson(workerOf(ctx), params.id, signInOf(ctx))) };
    },
  };
}

const janusMessage = Joi.object({ janus: Joi.string() }).unknown(true);
const janusReply = Joi.alternatives(janusMessage, Joi.array().items(janusMessage))
  .description('One message; a long poll with `maxev` above 1 answers an array of them')
  .label('JanusReply');
const SIGNALING = {
  tags: ['Media'],
  auth: 'none' as const,
  responses: {
    200: { description: 'Janus’s answer, as it gave it', schema: janusReply },
    401: { description: 'No valid media token', schema: failBodySchema },
    403: { description: 'A request the proxy does not pass on', schema: failBodySchema },
    404: {
      description: 'Not a Janus session or handle this media token opened (another’s ids answer the same)',
      schema: failBodySchema,
    },
    409: {
      description:
        'The connection already holds a handle for each stream its room needs (its publisher and a ' +
        'subscription to each other person’s connections): detach one first',
      schema: failBodySchema,
    },
    503: { description: 'The media server is unreachable, or gave no answer: retry', schema: failBodySchema },
  },
};
const SIGNALING_DESCRIPTION =
  'Janus’s HTTP API for the pages (janus.js with `token`: the media token). Only a videoroom client’s ' +
  'requests pass; the room is always the session’s, a publisher’s id and name always the token’s.';

function signalingRoutes(signaling: Signaling): RouteDefinition[] {
  const janusBody = Joi.object({ janus: Joi.string().required(), token: Joi.string() }).unknown(true);
  const ids = { session: Joi.string(), handle: Joi.string() };
  return [
    {
      method: 'post',
      path: '/media/janus',
      operationId: 'signalingCreate',
      summary: 'Signaling: a Janus session',
      description: SIGNALING_DESCRIPTION,
      body: janusBody,
      ...SIGNALING,
      handler: async (ctx) => {
        ctx.body = await signaling.post({}, ctx.request.body);
      },
    },
    {
      method: 'post',
      path: '/media/janus/{session}',
      operationId: 'signalingSession',
      summary: 'Signaling: a request on a Janus session',
      description: `${SIGNALING_DESCRIPTION} The body may come as \`text/plain\` (janus.js ends its connection with \`navigator.sendBeacon\` as the page unloads).`,
      params: Joi.object({ session: ids.session }),
      body: janusBody,
      acceptsBeacon: true,
      ...SIGNALING,
      handler: async (ctx) => {
        ctx.body = await signaling.post({ session: ctx.params.session }, ctx.request.body);
      },
    },
    {
      method: 'post',
      path: '/media/janus/{session}/{handle}',
      operationId: 'signalingHandle',
      summary: 'Signaling: a request on a videoroom handle',
      params: Joi.object(ids),
      body: janusBody,
      ...SIGNALING,
      handler: async (ctx) => {
        const { session, handle } = ctx.params;
        ctx.body = await signaling.post({ session, handle }, ctx.request.body);
      },
    },
    {
      method: 'get',
      path: '/media/janus/{session}',
      operationId: 'signalingPoll',
      summary: 'Signaling: the long poll for a Janus session’s events',
      params: Joi.object({ session: ids.session }),
      query: Joi.object({ token: Joi.string(), maxev: Joi.number().integer(), rid: Joi.string() }),
      ...SIGNALING,
      responses: {
        ...SIGNALING.responses,
        410: {
          description: 'The media server no longer has this Janus session (it restarted): connect again',
          schema: failBodySchema,
        },
      },
      handler: async (ctx, { query }) => {
        ctx.body = await signaling.poll(ctx.params.session, query as { token?: string; maxev?: number });
      },
    },
  ] as RouteDefinition[];
}

/** Janus's event handler authenticates with HTTP Basic (`janus` and MEDIA_EVENTS_SECRET). */
function basicAuthIs(ctx: AppContext, secret: string | undefined): boolean {
  const given = /^Basic (.+)$/.exec(ctx.get('authorization'))?.[1];
  if (!secret || !given) return false;
  const expected = Buffer.from(`janus:${secret}`);
  const actual = Buffer.from(given, 'base64');
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
}

function mediaEventsRoute(relay: RoomEventRelay, secret: () => string | undefined): RouteDefinition {
  return {
    method: 'post',
    path: '/internal/media/events',
    operationId: 'mediaServerEvents',
    summary: 'The media server’s events (Janus’s HTTP event handler)',
    description:
      'Publishers’ streams beginning and ending in the live rooms, handed to each session’s workflow ' +
      '(events `participant_connected` and `participant_disconnected`). For Janus only: HTTP Basic ' +
      '`janus:MEDIA_EVENTS_SECRET`.',
    tags: ['Media'],
    auth: 'none',
    bodyLimitBytes: 1024 * 1024,
    body: Joi.alternatives(Joi.array(), Joi.object().unknown(true)),
    responses: {
      200: { description: 'Taken', schema: Joi.object({ relayed: Joi.number(), dropped: Joi.number() }) },
      401: { description: 'Not the media server', schema: failBodySchema },
      503: { description: 'Temporal is unreachable; Janus posts the events again', schema: failBodySchema },
    },
    handler: async (ctx) => {
      if (!basicAuthIs(ctx, secret())) throw unauthenticated();
      ctx.body = await relay.relay(roomEventsOf(ctx.request.body));
    },
  };
}

/** Janus answers its own errors with 200 and a body; the proxy's refusals are plain HTTP statuses. */
export function registerMediaRoutes(
  site: ApiRoutes,
  api: ApiRoutes,
  deps: {
    access: RoomAccess;
    signaling: Signaling;
    relay: RoomEventRelay;
    eventsSecret: () => string | undefined;
  },
): void {
  site.add(participantRoomRoute(deps.access));
  site.add(roomStateRoute(deps.access));
  api.add(personRoomRoute(deps.access));
  for (const route of signalingRoutes(deps.signaling)) site.add(route);
  site.add(mediaEventsRoute(deps.relay, deps.eventsSecret));
}
