import Joi from 'joi';
import type { TemporalHandle } from '../../temporal/client';
import type { SessionService } from '../../sessions/sessionService';
import { createSessionSchema, addDocumentsSchema } from '../../sessions/createRequest';
import { NOTARY_ACTIONS, runNotaryAction, type NotaryAction } from '../../sessions/actions';
import {
  actionResponse,
  completeBody,
  createFailureBody,
  createSessionResponse,
  documentsResponse,
  listQuery,
  sessionIdParams,
  sessionListResponse,
  sessionResponse,
} from '../../sessions/schemas';
import { failBodySchema } from '../openapi/document';
import { createFailure, messageOf } from '../../sessions/createRules';
import { idempotentAnswerWithin, principalOf, type AppContext } from '../context';
import type { Actor } from '../../../core/session/machine';
import { linksFrom, type ApiRoutes } from '../routeTable';

const BASE = '/sessions';
const notFound = {
  description: 'Unknown, malformed or another account’s session: `Session not found`',
  schema: failBodySchema,
};
const idempotencyConflict = {
  description:
    '`duplicate nonce`: the Idempotency-Key was used with another request; or the action is not allowed now',
  schema: failBodySchema,
};

/**
 * Who acts: the account's key (or a token minted from it), a team member signed in with a login link,
 * or a network notary.
 */
function actorOf(ctx: AppContext): Actor {
  const person = ctx.state.networkPerson;
  if (person) return { kind: 'network_notary', notaryId: person.id };
  const principal = principalOf(ctx);
  return principal.member
    ? { kind: 'member', role: principal.member.role, memberId: principal.member.id }
    : { kind: 'account' };
}

export function registerSessionRoutes(
  api: ApiRoutes,
  sessions: SessionService,
  temporal: TemporalHandle,
): void {
  api.add<{ id: string }>({
    method: 'post',
    path: BASE,
    operationId: 'createSession',
    summary: 'Create a notarization session',
    description:
      'Spec 4.1. Every failure is HTTP 403 with the 7.1 body. The 7.1 rules are checked in their table order and ' +
      'the first that fails answers; then the field rules, each message naming its field (e.g. ' +
      '`all_signers[0].last_name length must be less than or equal to 50 characters long`). The session and its ' +
      'Temporal workflow (`session-{bn_session_id}`) are created together or not at all (503, retry-safe). ' +
      'Send `Idempotency-Key` to make retries replay the first answer.',
    tags: ['Sessions'],
    auth: 'api',
    body: createSessionSchema,
    acceptsDocuments: true,
    validatesBody: true,
    onInvalid: (error) => createFailure(messageOf(error)),
    responses: {
      200: {
        description: 'Created',
        schema: createSessionResponse,
        links: linksFrom('bn_session_id', [
          'getSession',
          'addSessionDocuments',
          ...Object.keys(NOTARY_ACTIONS).map((action) => `session_${action}`),
          'getSignedDocuments',
          'getJournal',
          'getAuditTrail',
        ]),
      },
      403: { description: 'Validation failure (spec 7.1)', schema: createFailureBody },
      409: idempotencyConflict,
    },
    handler: async (ctx) => {
      const body = ctx.request.body;
      // The parsed body holds the base64 documents; let the service own the only reference.
      ctx.request.body = undefined;
      const { accountId, whiteLabelBaseUrl } = principalOf(ctx);
      ctx.body = await sessions.create(
        { accountId, whiteLabelBaseUrl: whiteLabelBaseUrl ?? null },
        body,
        idempotentAnswerWithin(ctx, 200),
      );
    },
  });

  api.add<unknown, { notarization_id?: string; status?: string; page: number; limit: number }>({
    method: 'get',
    path: BASE,
    operationId: 'listSessions',
    summary: 'List sessions, newest first',
    tags: ['Sessions'],
    auth: 'api',
    query: listQuery,
    responses: {
      200: { description: 'A page of sessions', schema: sessionListResponse },
      400: { description: 'Bad query', schema: failBodySchema },
    },
    handler: async (ctx, { query }) => {
      ctx.body = await sessions.list(principalOf(ctx).accountId, query);
    },
  });

  api.add<unknown, unknown, { id: string }>({
    method: 'get',
    path: `${BASE}/{id}`,
    operationId: 'getSession',
    summary: 'Look up a session (status, notary, participants, documents)',
    tags: ['Sessions'],
    auth: 'api',
    params: sessionIdParams,
    responses: { 200: { description: 'The session', schema: sessionResponse }, 404: notFound },
    handler: async (ctx, { params }) => {
      ctx.body = await sessions.get(principalOf(ctx).accountId, params.id);
    },
  });

  api.add<unknown, unknown, { id: string }>({
    method: 'post',
    path: `${BASE}/{id}/documents`,
    operationId: 'addSessionDocuments',
    summary: 'Add documents to a session before it starts',
    description:
      'Spec 4.3: the same document rules as create (403 with the 7.1 body); 409 once the session is in_progress or later.',
    tags: ['Sessions'],
    auth: 'api',
    params: sessionIdParams,
    body: addDocumentsSchema,
    acceptsDocuments: true,
    validatesBody: true,
    onInvalid: (error) => createFailure(messageOf(error)),
    responses: {
      200: { description: "The session's documents", schema: documentsResponse },
      403: { description: 'Validation failure', schema: createFailureBody },
      404: notFound,
      409: idempotencyConflict,
    },
    handler: async (ctx, { params }) => {
      const body = ctx.request.body;
      ctx.request.body = undefined;
      ctx.body = await sessions.addDocuments(
        principalOf(ctx).accountId,
        params.id,
        body,
        idempotentAnswerWithin(ctx, 200),
      );
    },
  });

  for (const action of Object.keys(NOTARY_ACTIONS) as NotaryAction[]) {
    api.add<{ time_zone?: string }, unknown, { id: string }>({
      method: 'post',
      path: `${BASE}/{id}/${action}`,
      operationId: `session_${action}`,
      summary: NOTARY_ACTIONS[action].summary,
      description:
        'A workflow update: 200 with the resulting status, or 409 with the reason the session refuses it now. ' +
        'Retry-safe: when the session is already where the action leads (`start` on in_progress or completed, `complete` on ' +
        'completed, `release_documents` on released, `cancel` on cancelled) the answer is 200 with the session’s ' +
        'state, so a retry after a lost answer (timeout, 503) learns that the action happened.',
      tags: ['Notary actions'],
      auth: 'session_actor',
      params: sessionIdParams,
      body: action === 'complete' ? completeBody : Joi.object({}).unknown(true),
      responses: {
        200: { description: 'Done', schema: actionResponse },
        400: {
          description: 'The body is not a JSON object; for `complete`, `time_zone` is not an IANA time zone',
          schema: failBodySchema,
        },
        403: {
          description:
            'A team member acting outside their role (a network notary on a session not theirs now, a lapsed offer ' +
            'among them, gets 404)',
          schema: failBodySchema,
        },
        404: notFound,
        409: {
          description:
            idempotencyConflict.description +
            "; `start` and `complete` also when the notary's commission is not on file, has expired, or is from " +
            'another state than the session’s `state_specific_notary` ' +
            '(`Session cannot be started: …`, `Session cannot be completed: …`). A completion is the notarial act: ' +
            'the commission is judged at the time its certificate states. A commission is in force through the end of ' +
            'its expiry day in its jurisdiction’s own time (the zone whose day ends first, for a state across zones). ' +
            'When the session waits on the service rather than a person (before `session_timing`, while a notary is ' +
            'being assigned) the reason says so and `Retry-After` gives the seconds to wait.',
          schema: failBodySchema,
          headers: {
            'Retry-After': 'Seconds until retrying can succeed; only when the wait is on the service',
          },
        },
      },
      handler: async (ctx, { params, body }) => {
        const actor = actorOf(ctx);
        const find = () =>
          actor.kind === 'network_notary'
            ? sessions.findRowForNetworkNotary(actor.notaryId, params.id)
            : sessions.findRow(principalOf(ctx).accountId, params.id);
        const session = await find();
        const result = await runNotaryAction(temporal, session, action, actor, {
          prepare: () => sessions.notaryActionArguments(session, action, body),
          reread: find,
        });
        ctx.body = {
          response: 'Pass',
          bn_session_id: session.id,
          status: result.status,
          documents_status: result.documentsStatus,
        };
      },
    });
  }
}
