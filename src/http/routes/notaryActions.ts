import Joi from 'joi';
import type { TemporalHandle } from '../../temporal/client';
import type { SessionService } from '../../sessions/sessionService';
import { NOTARY_ACTIONS, runNotaryAction, type NotaryAction } from '../../sessions/actions';
import { actionResponse, cancelBody, completeBody, sessionIdParams } from '../../sessions/schemas';
import { failBodySchema } from '../openapi/document';
import { actorOf, principalOf } from '../context';
import type { ApiRoutes, RouteDefinition } from '../routeTable';
import { actionAnswer, idempotencyConflict, notFound } from './sessionResponses';

const BASE = '/sessions';

/** POST /sessions/{id}/<action>: a notary action, answered by the session's workflow. */
function actionRoute(
  action: NotaryAction,
  sessions: SessionService,
  temporal: TemporalHandle,
): RouteDefinition<{ time_zone?: string; reason?: string }, unknown, { id: string }> {
  return {
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
    body:
      action === 'complete' ? completeBody : action === 'cancel' ? cancelBody : Joi.object({}).unknown(true),
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
          'the commission is judged at the time its certificate states. A live act’s `complete` also before its ' +
          'notary has adopted a signature (`Session cannot be completed before the notary adopts a signature (in the ' +
          'console: Your signature)`; POST /me/signature). A commission is in force through the end of ' +
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
        prepare: () => sessions.notaryActionArguments(session, action, body, actor),
        reread: find,
      });
      ctx.body = actionAnswer(session.id, result);
    },
  };
}

export function registerNotaryActionRoutes(
  api: ApiRoutes,
  sessions: SessionService,
  temporal: TemporalHandle,
): void {
  for (const action of Object.keys(NOTARY_ACTIONS) as NotaryAction[])
    api.add(actionRoute(action, sessions, temporal));
}
