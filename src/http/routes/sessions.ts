import type { TemporalHandle } from '../../temporal/client';
import type { SessionService } from '../../sessions/sessionService';
import { createSessionSchema, addDocumentsSchema } from '../../sessions/createRequest';
import { NOTARY_ACTIONS } from '../../sessions/actions';
import {
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
import { idempotentAnswerWithin, principalOf } from '../context';
import { linksFrom, type ApiRoutes, type RouteDefinition } from '../routeTable';
import {
  createResponse,
  documentsAddedResponse,
  presentSession,
  presentSessionSummary,
} from '../presenters/sessionBodies';
import { registerNotaryActionRoutes } from './notaryActions';
import { idempotencyConflict, notFound } from './sessionResponses';

const BASE = '/sessions';

/** POST /sessions (spec 4.1). */
function createRoute(sessions: SessionService): RouteDefinition<{ id: string }> {
  return {
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
      const { accountId, whiteLabelBaseUrl, testMode } = principalOf(ctx);
      const created = await sessions.creation.create(
        { accountId, whiteLabelBaseUrl: whiteLabelBaseUrl ?? null, testMode: testMode ?? false },
        body,
        idempotentAnswerWithin(ctx, 200, createResponse),
      );
      ctx.body = createResponse(created);
    },
  };
}

/** GET /sessions: the account's sessions, newest first. */
function listRoute(
  sessions: SessionService,
): RouteDefinition<unknown, { notarization_id?: string; status?: string; page: number; limit: number }> {
  return {
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
      const { rows, pagination } = await sessions.list(principalOf(ctx).accountId, query);
      ctx.body = { response: 'Pass', data: rows.map(presentSessionSummary), pagination };
    },
  };
}

/** GET /sessions/{id} (contract §2). */
function getRoute(sessions: SessionService): RouteDefinition<unknown, unknown, { id: string }> {
  return {
    method: 'get',
    path: `${BASE}/{id}`,
    operationId: 'getSession',
    summary: 'Look up a session (status, notary, participants, documents)',
    tags: ['Sessions'],
    auth: 'api',
    params: sessionIdParams,
    responses: { 200: { description: 'The session', schema: sessionResponse }, 404: notFound },
    handler: async (ctx, { params }) => {
      const { row, participants, documents, notaryPresence } = await sessions.get(
        principalOf(ctx).accountId,
        params.id,
      );
      ctx.body = { response: 'Pass', ...presentSession(row, participants, documents, notaryPresence) };
    },
  };
}

/** POST /sessions/{id}/documents (spec 4.3). */
function addDocumentsRoute(sessions: SessionService): RouteDefinition<unknown, unknown, { id: string }> {
  return {
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
      const added = await sessions.documentAddition.add(
        principalOf(ctx).accountId,
        params.id,
        body,
        idempotentAnswerWithin(ctx, 200, documentsAddedResponse),
      );
      ctx.body = documentsAddedResponse(added);
    },
  };
}

export function registerSessionRoutes(
  api: ApiRoutes,
  sessions: SessionService,
  temporal: TemporalHandle,
): void {
  api.add(createRoute(sessions));
  api.add(listRoute(sessions));
  api.add(getRoute(sessions));
  api.add(addDocumentsRoute(sessions));
  registerNotaryActionRoutes(api, sessions, temporal);
}
