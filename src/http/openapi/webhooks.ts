import { EVENT_NAMES } from '../../../core/session/events';
import { ONCE_PER_SESSION_EVENTS } from '../../../core/session/eventIds';
import { EVENT_DOCUMENTATION, webhookBodySchema } from '../../webhooks/eventSchemas';
import { exampleOf } from './exampleOf';
import { toSchema, type JsonSchema } from './jsonSchema';

const SIGNATURE_HEADERS = [
  [
    'webhook-id',
    `The event’s id (\`evt_…\`): the same on every attempt, so a receiver can drop repeats. A session publishes each of ${ONCE_PER_SESSION_EVENTS.map((e) => `\`${e}\``).join(', ')} at most once, under an id made from the session and the event alone (a later attempt of it carries the same id); any other event’s id is made from its data and how many times the session had published the same before, so a step the session runs again after a fault or an operator’s reset publishes it under the id it had`,
  ],
  ['webhook-timestamp', 'Seconds since the epoch when this attempt was signed'],
  [
    'webhook-signature',
    '`v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}" with the endpoint’s secret>` (Standard Webhooks)',
  ],
] as const;

/**
 * What the service sends to a webhook endpoint, one entry per event (OpenAPI 3.1 `webhooks`): the body
 * with that event's `data`, the signature headers, and what each answer of the receiver means.
 */
export function webhookDescriptions(): Record<string, JsonSchema> {
  return Object.fromEntries(
    EVENT_NAMES.map((event) => {
      const schema = toSchema(webhookBodySchema(event));
      return [
        event,
        {
          post: {
            operationId: `webhook_${event}`,
            summary: EVENT_DOCUMENTATION[event].summary,
            tags: ['Webhooks'],
            parameters: SIGNATURE_HEADERS.map(([name, description]) => ({
              name,
              in: 'header',
              required: true,
              description,
              schema: { type: 'string' },
            })),
            requestBody: {
              required: true,
              content: { 'application/json': { schema, example: exampleOf(schema) } },
            },
            responses: {
              '2XX': { description: 'Delivered: no more attempts' },
              '410': { description: 'Gone: the endpoint is disabled and gets no more deliveries' },
              default: {
                description:
                  'Anything else, or no answer within WEBHOOK_TIMEOUT (15 s by default): retried on WEBHOOK_RETRY_SCHEDULE with the same webhook-id',
              },
            },
          },
        },
      ];
    }),
  );
}
