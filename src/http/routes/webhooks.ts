import Joi from 'joi';
import { MAX_WEBHOOK_ENDPOINTS, type WebhookEndpointService } from '../../webhooks/endpointService';
import { EVENT_NAMES } from '../../../core/session/events';
import { failBodySchema } from '../openapi/document';
import { paginationSchema } from '../../sessions/schemas';
import { idempotentAnswerWithin, principalOf } from '../context';
import { linksFrom, type ApiRoutes, type RouteDefinition } from '../routeTable';
import { createBody, endpointSchema, idParams, notFound, updateBody } from './webhookSchemas';

/** Register a webhook endpoint */
function createWebhookEndpointRoute(
  endpoints: WebhookEndpointService,
): RouteDefinition<{ url: string; events?: string[] }> {
  return {
    method: 'post',
    path: '/webhooks',
    operationId: 'createWebhookEndpoint',
    summary: 'Register a webhook endpoint',
    description:
      'Deliveries are signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 ' +
      'HMAC-SHA256 of "{id}.{timestamp}.{body}">`); `secret` is shown only here. Body: `{id, event, created_at, ' +
      'bn_session_id, notarization_id, status, data}`, each event’s under `webhooks` in this document. Only 2xx counts as delivered; other answers are retried on ' +
      'WEBHOOK_RETRY_SCHEDULE (default 5s, 5m, 30m, 2h, 5h, 10h, 10h); each attempt times out after WEBHOOK_TIMEOUT (15 s by default); 410 Gone ' +
      'disables the endpoint. Outside development, URLs resolving to private or loopback addresses are refused (422).',
    tags: ['Webhooks'],
    auth: 'api',
    body: createBody,
    responses: {
      201: {
        description: 'Registered',
        schema: endpointSchema.keys({ secret: Joi.string().pattern(/^whsec_/) }),
        links: linksFrom('id', [
          'listWebhookDeliveries',
          'updateWebhookEndpoint',
          'rotateWebhookSecret',
          'deleteWebhookEndpoint',
        ]),
      },
      400: { description: 'Invalid url or events', schema: failBodySchema },
      409: {
        description: `\`An account has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one first\``,
        schema: failBodySchema,
      },
      422: { description: 'Target not allowed', schema: failBodySchema },
    },
    handler: async (ctx, { body }) => {
      ctx.status = 201;
      ctx.body = await endpoints.create(
        principalOf(ctx).accountId,
        body,
        idempotentAnswerWithin(ctx, 201, (created) => created),
      );
    },
  };
}

function listWebhookEndpointsRoute(endpoints: WebhookEndpointService): RouteDefinition<unknown> {
  return {
    method: 'get',
    path: '/webhooks',
    operationId: 'listWebhookEndpoints',
    summary: "The account's webhook endpoints",
    tags: ['Webhooks'],
    auth: 'api',
    responses: {
      200: { description: 'Endpoints', schema: Joi.object({ data: Joi.array().items(endpointSchema) }) },
    },
    handler: async (ctx) => {
      ctx.body = await endpoints.list(principalOf(ctx).accountId);
    },
  };
}

/** Remove a webhook endpoint; pending retries to it stop */
function deleteWebhookEndpointRoute(
  endpoints: WebhookEndpointService,
): RouteDefinition<unknown, unknown, { id: string }> {
  return {
    method: 'delete',
    path: '/webhooks/{id}',
    operationId: 'deleteWebhookEndpoint',
    summary: 'Remove a webhook endpoint; pending retries to it stop',
    tags: ['Webhooks'],
    auth: 'api',
    params: idParams,
    responses: {
      200: { description: 'Removed', schema: Joi.object({ response: Joi.string().valid('Pass') }) },
      404: notFound,
    },
    handler: async (ctx, { params }) => {
      await endpoints.remove(principalOf(ctx).accountId, params.id);
      ctx.body = { response: 'Pass' };
    },
  };
}

/** Change an endpoint's URL, events, or whether it is enabled */
function updateWebhookEndpointRoute(
  endpoints: WebhookEndpointService,
): RouteDefinition<{ url?: string; events?: string[] | null; enabled?: boolean }, unknown, { id: string }> {
  return {
    method: 'patch',
    path: '/webhooks/{id}',
    operationId: 'updateWebhookEndpoint',
    summary: "Change an endpoint's URL, events, or whether it is enabled",
    description:
      'Only the fields given change; its secret and deliveries stay. A new `url` takes the next attempt of a ' +
      'delivery being retried too; `events` apply to events from now on. `enabled: true` re-enables an endpoint ' +
      'a 410 disabled (`disabled_at`, `disabled_reason` cleared), after which its deliveries marked `disabled` ' +
      'can be redelivered; `enabled: false` disables it, and its events make no deliveries until it is enabled.',
    tags: ['Webhooks'],
    auth: 'api',
    params: idParams,
    body: updateBody,
    responses: {
      200: { description: 'Changed', schema: endpointSchema },
      400: { description: 'Nothing to change, or an invalid url or events', schema: failBodySchema },
      404: notFound,
      422: { description: 'Target not allowed', schema: failBodySchema },
    },
    handler: async (ctx, { params, body }) => {
      ctx.body = await endpoints.update(principalOf(ctx).accountId, params.id, body);
    },
  };
}

/** Replace an endpoint's signing secret, the old one signing beside it for a while */
function rotateWebhookSecretRoute(
  endpoints: WebhookEndpointService,
): RouteDefinition<unknown, unknown, { id: string }> {
  return {
    method: 'post',
    path: '/webhooks/{id}/rotate_secret',
    operationId: 'rotateWebhookSecret',
    summary: "Replace an endpoint's signing secret, the old one signing beside it for a while",
    description:
      'The new `secret` is shown only here. Until `previous_secret_expires_at` (WEBHOOK_SECRET_ROTATION_GRACE after ' +
      'the rotation, 24 h by default) every delivery, retries and redeliveries too, carries two signatures in ' +
      '`webhook-signature` (`v1,<new> v1,<old>`), so a receiver verifies with either and moves to the new secret ' +
      'at its own pace; then only the new one signs. Rotating again in that time replaces the new secret and ' +
      'keeps it, not the first, signing beside. Send an `Idempotency-Key` to retry safely: a second rotation ' +
      'would retire the secret the receiver still holds.',
    tags: ['Webhooks'],
    auth: 'api',
    params: idParams,
    responses: {
      200: {
        description: 'Rotated',
        schema: endpointSchema.keys({
          secret: Joi.string().pattern(/^whsec_/),
          previous_secret_expires_at: Joi.string()
            .isoDate()
            .description('Until then the replaced secret signs too'),
        }),
      },
      404: notFound,
    },
    handler: async (ctx, { params }) => {
      ctx.body = await endpoints.rotateSecret(
        principalOf(ctx).accountId,
        params.id,
        idempotentAnswerWithin(ctx, 200, (rotated) => rotated),
      );
    },
  };
}

/** Deliveries to an endpoint, newest first, with every attempt */
function listWebhookDeliveriesRoute(
  endpoints: WebhookEndpointService,
): RouteDefinition<unknown, { page: number; limit: number }, { id: string }> {
  return {
    method: 'get',
    path: '/webhooks/{id}/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: 'Deliveries to an endpoint, newest first, with every attempt',
    tags: ['Webhooks'],
    auth: 'api',
    params: idParams,
    query: Joi.object({
      page: Joi.number().integer().min(1).default(1),
      limit: Joi.number().integer().min(1).max(100).default(25),
    }),
    responses: {
      200: {
        description: 'Deliveries',
        schema: Joi.object({
          data: Joi.array().items(
            Joi.object({
              delivery_id: Joi.string().guid(),
              event_id: Joi.string(),
              event: Joi.string().valid(...EVENT_NAMES),
              bn_session_id: Joi.string().guid(),
              status: Joi.string()
                .valid('pending', 'delivered', 'failed', 'disabled')
                .description(
                  '`pending`: attempted on the schedule; `delivered`: a 2xx came back; `failed`: the schedule was ' +
                    'spent, or an operator stopped its retries (cancelled or terminated their workflow; redeliver sends it ' +
                    'again); `disabled`: its endpoint ' +
                    'was disabled or deleted.',
                ),
              failure_reason: Joi.string()
                .valid('retries_exhausted', 'stopped_by_operator')
                .allow(null)
                .description(
                  'Why a `failed` delivery failed: `retries_exhausted`, its last attempt on the schedule did not ' +
                    'deliver; `stopped_by_operator`, an operator cancelled or terminated the workflow retrying it. ' +
                    'Null for any other status, and for deliveries that failed before this field existed.',
                ),
              attempt_count: Joi.number().integer(),
              last_status_code: Joi.number().integer().allow(null),
              delivered_at: Joi.string().isoDate().allow(null),
              created_at: Joi.string().isoDate(),
              attempts: Joi.array().items(
                Joi.object({
                  attempted_at: Joi.string().isoDate(),
                  status_code: Joi.number().integer().allow(null),
                  latency_ms: Joi.number().integer(),
                  error: Joi.string().allow(null),
                  success: Joi.boolean(),
                }),
              ),
            }).label('WebhookDelivery'),
          ),
          pagination: paginationSchema,
        }),
      },
      404: notFound,
    },
    handler: async (ctx, { params, query }) => {
      ctx.body = await endpoints.deliveries(principalOf(ctx).accountId, params.id, query.page, query.limit);
    },
  };
}

/** Deliver an event to its endpoint again */
function redeliverWebhookRoute(
  endpoints: WebhookEndpointService,
): RouteDefinition<unknown, unknown, { delivery_id: string }> {
  return {
    method: 'post',
    path: '/webhooks/deliveries/{delivery_id}/redeliver',
    operationId: 'redeliverWebhook',
    summary: 'Deliver an event to its endpoint again',
    description:
      'Attempts the delivery now, on a fresh retry schedule, with the same `webhook-id` and body. A delivery still ' +
      'being retried is attempted now by the retries carrying it, whose schedule then starts again (an attempt ' +
      'under way finishes first).',
    tags: ['Webhooks'],
    auth: 'api',
    params: Joi.object({ delivery_id: Joi.string() }),
    responses: {
      202: {
        description: 'Redelivery started',
        schema: Joi.object({ response: Joi.string(), delivery_id: Joi.string(), status: Joi.string() }),
      },
      404: notFound,
      409: { description: 'The endpoint is disabled', schema: failBodySchema },
    },
    handler: async (ctx, { params }) => {
      ctx.status = 202;
      const { deliveryId, status } = await endpoints.redeliver(
        principalOf(ctx).accountId,
        params.delivery_id,
      );
      ctx.body = { response: 'Pass', delivery_id: deliveryId, status };
    },
  };
}

export function registerWebhookRoutes(api: ApiRoutes, endpoints: WebhookEndpointService): void {
  api.add(createWebhookEndpointRoute(endpoints));

  api.add(listWebhookEndpointsRoute(endpoints));

  api.add(deleteWebhookEndpointRoute(endpoints));

  api.add(updateWebhookEndpointRoute(endpoints));

  api.add(rotateWebhookSecretRoute(endpoints));

  api.add(listWebhookDeliveriesRoute(endpoints));

  api.add(redeliverWebhookRoute(endpoints));
}
