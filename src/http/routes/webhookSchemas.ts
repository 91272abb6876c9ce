/** The webhook routes' bodies and answers (contract §5), as the OpenAPI document shows them. */
import Joi from 'joi';
import { EVENT_NAMES } from '../../../core/session/events';
import { failBodySchema } from '../openapi/document';

const targetUrl = Joi.string()
  .uri({ scheme: ['http', 'https'] })
  .max(2000);
const eventList = Joi.array()
  .items(Joi.string().valid(...EVENT_NAMES))
  .min(1)
  .unique();

export const endpointSchema = Joi.object({
  id: Joi.string().guid(),
  url: Joi.string().uri(),
  events: Joi.array()
    .items(Joi.string().valid(...EVENT_NAMES))
    .allow(null)
    .description('null: every event'),
  disabled_at: Joi.string().isoDate().allow(null).description('Set when the receiver answered 410 Gone'),
  disabled_reason: Joi.string().allow(null),
  created_at: Joi.string().isoDate(),
}).label('WebhookEndpoint');

export const createBody = Joi.object({
  url: targetUrl.required(),
  events: eventList.description('Omit for every event'),
}).label('CreateWebhookEndpoint');

export const updateBody = Joi.object({
  url: targetUrl,
  events: eventList.allow(null).description('null: every event'),
  enabled: Joi.boolean().description('true re-enables an endpoint disabled by a 410; false disables it'),
})
  .min(1)
  .label('UpdateWebhookEndpoint');

export const idParams = Joi.object({ id: Joi.string() });
export const notFound = { description: 'Not found', schema: failBodySchema };
