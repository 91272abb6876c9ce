import Joi from 'joi';
import type { Sequelize } from 'sequelize';
import { Histogram, type Registry } from 'prom-client';
import type { TemporalHandle } from '../../temporal/client';
import type { ParticipantJourneys } from '../../participants/journey';
import { acceptOffer, declineOffer } from '../../network/offers';
import { workList } from '../../network/workQueue';
import { actionResponse, sessionIdParams } from '../../sessions/schemas';
import { failBodySchema } from '../openapi/document';
import { workListResponse } from './workListSchema';
import { networkPersonAs, workerOf } from '../context';
import type { ApiRoutes, RouteDefinition } from '../routeTable';
import { actionAnswer } from './sessionResponses';

// The signed-in notary's or witness's own work: what the notary console shows and does.
const BASE = '/me/sessions';
const notFound = {
  description: 'A session never offered or assigned to you: `Session not found`',
  schema: failBodySchema,
};

/** The sessions offered to you, assigned to you, or that you witness */
function listMySessionsRoute(deps: {
  sequelize: Sequelize;
  temporal: TemporalHandle;
  journeys: ParticipantJourneys;
  metrics: Registry;
}): RouteDefinition<unknown> {
  return {
    method: 'get',
    path: BASE,
    operationId: 'listMySessions',
    summary: 'The sessions offered to you, assigned to you, or that you witness',
    description:
      'A network notary sees the sessions offered to them (`relation: offered`, until `offer_expires_at`) and those ' +
      'they accepted; a network witness the sessions they are assigned to; a team notary their sessions, a pretagger ' +
      'the sessions awaiting pretagging, an admin the account’s sessions. Unfinished first, newest first, at most 50. ' +
      'A network notary also sees their commission, and whether the network offers them sessions: only while at ' +
      'least 24 hours of it are left.',
    tags: ['Notary console'],
    auth: 'person',
    responses: { 200: { description: 'Your sessions', schema: workListResponse } },
    handler: async (ctx) => {
      ctx.body = await workList(deps.sequelize, workerOf(ctx));
    },
  };
}

/** Accept a session offered to you (network notaries) */
function acceptOfferRoute(
  deps: { sequelize: Sequelize; temporal: TemporalHandle; journeys: ParticipantJourneys; metrics: Registry },
  timeToNotary: Histogram,
): RouteDefinition<unknown, unknown, { id: string }> {
  return {
    method: 'post',
    path: `${BASE}/{id}/accept`,
    operationId: 'acceptOffer',
    summary: 'Accept a session offered to you (network notaries)',
    description:
      'The session offers itself to one network notary at a time, for NOTARY_OFFER_TIMEOUT (default 2 minutes): ' +
      'the accept of the notary it is offered to makes them its notary at once (`ready`, event `notary_assigned`). ' +
      'After the offer has moved on: 409 `This session is no longer offered to you`. A retried accept answers 200. ' +
      'The notary then has NOTARY_START_TIMEOUT (default 15 minutes) to start, or the session goes back to the ' +
      'queue (event `notary_released`).',
    tags: ['Notary console'],
    auth: 'person',
    params: sessionIdParams,
    body: Joi.object({}).unknown(true),
    responses: {
      200: { description: 'You are the session’s notary', schema: actionResponse },
      403: { description: 'Not a network notary', schema: failBodySchema },
      404: notFound,
      409: {
        description:
          'The offer has moved on or the session has ended; or the notary’s commission is no longer in force ' +
          '(`Session cannot be accepted: the notary’s commission expired on …`; it ends with its expiry day in its ' +
          'jurisdiction’s time), as a notary whose commission ended since the offer could not start the session; or ' +
          'it is from another state than the session’s `state_specific_notary` (`Session cannot be accepted: the ' +
          'session asks for a notary commissioned in …`)',
        schema: failBodySchema,
      },
    },
    handler: async (ctx, { params }) => {
      const notary = networkPersonAs(ctx, 'notary');
      const result = await acceptOffer(deps.sequelize, deps.temporal, notary.id, params.id);
      if (result.waitedMs !== undefined) timeToNotary.observe(result.waitedMs / 1000);
      ctx.body = actionAnswer(params.id, result);
    },
  };
}

/** Decline a session offered to you (network notaries): it is offered to the next notary at once */
function declineOfferRoute(deps: {
  sequelize: Sequelize;
  temporal: TemporalHandle;
}): RouteDefinition<unknown, unknown, { id: string }> {
  return {
    method: 'post',
    path: `${BASE}/{id}/decline`,
    operationId: 'declineOffer',
    summary: 'Decline a session offered to you (network notaries)',
    description:
      'The offer closes at once (`declined`) and the session is offered to the next eligible notary; it is not ' +
      'offered to you again. After the offer has moved on: 409 `This session is no longer offered to you`.',
    tags: ['Notary console'],
    auth: 'person',
    params: sessionIdParams,
    body: Joi.object({}).unknown(true),
    responses: {
      200: { description: 'Declined: the session is still waiting for a notary', schema: actionResponse },
      403: { description: 'Not a network notary', schema: failBodySchema },
      404: notFound,
      409: { description: 'The offer is not yours, or not open, any more', schema: failBodySchema },
    },
    handler: async (ctx, { params }) => {
      const notary = networkPersonAs(ctx, 'notary');
      const result = await declineOffer(deps.sequelize, deps.temporal, notary.id, params.id);
      ctx.body = actionAnswer(params.id, result);
    },
  };
}

/** Join a session you are assigned to witness (network witnesses) */
function witnessJoinRoute(deps: {
  sequelize: Sequelize;
  temporal: TemporalHandle;
  journeys: ParticipantJourneys;
  metrics: Registry;
}): RouteDefinition<unknown, unknown, { id: string }> {
  return {
    method: 'post',
    path: `${BASE}/{id}/join`,
    operationId: 'witnessJoin',
    summary: 'Join a session you are assigned to witness (network witnesses)',
    description:
      'Network witnesses have no signing URL (spec 2.3): they join with their own token. The same rules as ' +
      'POST /sign/{token}/join; the session cannot start until its witnesses have joined.',
    tags: ['Notary console'],
    auth: 'person',
    params: sessionIdParams,
    body: Joi.object({}).unknown(true),
    responses: {
      200: { description: 'Joined (or had already joined)', schema: Joi.object().unknown(true) },
      403: { description: 'Not a network witness', schema: failBodySchema },
      404: notFound,
      409: { description: 'The session is not open for joining now', schema: failBodySchema },
    },
    handler: async (ctx, { params }) => {
      const witness = networkPersonAs(ctx, 'witness');
      ctx.body = { response: 'Pass', ...(await deps.journeys.joinAsNetworkWitness(witness.id, params.id)) };
    },
  };
}

export function registerMeRoutes(
  api: ApiRoutes,
  deps: { sequelize: Sequelize; temporal: TemporalHandle; journeys: ParticipantJourneys; metrics: Registry },
): void {
  const timeToNotary = new Histogram({
    name: 'notary_time_to_accept_seconds',
    help: 'From an on-demand session’s signer waiting to a network notary accepting it',
    buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600],
    registers: [deps.metrics],
  });

  api.add(listMySessionsRoute(deps));

  api.add(acceptOfferRoute(deps, timeToNotary));

  api.add(declineOfferRoute(deps));

  api.add(witnessJoinRoute(deps));
}
