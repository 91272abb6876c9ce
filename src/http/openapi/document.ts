import Joi from 'joi';
import { DEFAULT_MAX_BODY_BYTES } from '../../config';
import { MAX_JSON_DEPTH } from '../jsonWithUploads';
import { answerTo } from '../middleware/errors';
import { UNAVAILABLE_MESSAGE, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../domain/errors';
import { carriesBody, invalidInput, SMALL_BODY_BYTES, type RouteDefinition } from '../routeTable';
import { VALIDATION_OPTIONS } from '../../validation/options';
import { REQUEST_EXAMPLES, RESPONSE_EXAMPLES } from './examples';
import { exampleOf } from './exampleOf';
import { toRequestSchema, toSchema, type JsonSchema } from './jsonSchema';
import { webhookDescriptions } from './webhooks';

export const failBodySchema = Joi.object({
  response: Joi.string().valid('Fail').required(),
  response_message: Joi.string().required(),
  internal_response: Joi.string().description('Technical detail; present only when NODE_ENV=development.'),
}).label('Fail');

const SECURITY: Record<string, { scheme: string; description: string }> = {
  api: {
    scheme: 'ApiKey',
    description:
      "The account's API key (`nsk_…`) or an access token minted from it by POST /auth/refresh. " +
      '`Authorization: Bearer <key>`; a bare key without `Bearer ` is also accepted. Missing or invalid: 401.',
  },
  session_actor: {
    scheme: 'ApiKeyOrTeamMember',
    description:
      "The account's API key (or a token minted from it), or a team member's access token from " +
      'POST /auth/login_link: a notary for sessions assigned to them, a pretagger for `pretagged` only, an admin for ' +
      "all of the vendor's sessions (403 otherwise). A network notary's token acts (pretagged, start, complete, " +
      'release_documents) on the sessions they accepted; any other session of theirs is 403, one never offered to them 404.',
  },
  person: {
    scheme: 'Person',
    description:
      "A notary's or witness's own access token from POST /auth/login_link: a team member's, or a network notary's " +
      "or witness's (their login links come from the admin CLI's `network-login-link`).",
  },
  team_member: {
    scheme: 'TeamMember',
    description:
      "A team member's own access token from POST /auth/login_link (the member acts for themself; no key is accepted).",
  },
  vendor: {
    scheme: 'VendorKey',
    description:
      "The account's vendor API key (`nvk_…`) or an access token minted from it. Same header rules as ApiKey. " +
      'An API key is refused (401) where the vendor key is required, and the other way round.',
  },
};

function parametersOf(schema: Joi.ObjectSchema | undefined, location: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const json = toRequestSchema(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (json.required ?? []).includes(name),
    ...(property.description ? { description: property.description } : {}),
    schema: property,
  }));
}

/** The spec's failure body. */
const fail = (message: string) => ({ response: 'Fail', response_message: message });

/** A failure's example: the message the description quotes (`…`), else the description itself. */
function failureExample(description: string): unknown {
  const quoted = /`([^`]+)`/.exec(description)?.[1];
  return fail(quoted ?? description);
}

const NON_JSON_EXAMPLES: Record<string, string> = {
  'text/html': '<!doctype html><html lang="en">…</html>',
  'text/plain': '# HELP process_cpu_seconds_total …',
  'application/pdf': '%PDF-1.7 … (the signed PDF)',
  'image/png': '(PNG image)',
  'image/svg+xml': '<svg xmlns="http://www.w3.org/2000/svg">…</svg>',
};

/** A response's headers, each with its description, as OpenAPI lists them. */
function headersOf(headers: Record<string, string> | undefined): JsonSchema {
  if (!headers) return {};
  return {
    headers: Object.fromEntries(
      Object.entries(headers).map(([h, d]) => [h, { description: d, schema: { type: 'string' } }]),
    ),
  };
}

interface MadeAnswer {
  descriptions: string[];
  example: unknown;
  headers?: Record<string, string>;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

// An input error for a route whose body refuses nothing when empty: what a wrongly typed value gets.
const SAMPLE_INVALID_INPUT = Joi.object().validate('', VALIDATION_OPTIONS).error!;

/**
 * The failures every route gives by the way routes.ts builds it (authentication, the body reader, input
 * validation) or by the error handler (an unreachable dependency), grouped by status; a route's own
 * description of a status wins over these.
 */
function routeBuilderFailures(def: RouteDefinition<never, never, never>): Record<number, MadeAnswer> {
  const answers: Record<number, MadeAnswer> = {};
  const add = (status: number, description: string, example: unknown, headers?: Record<string, string>) => {
    const answer = (answers[status] ??= { descriptions: [], example, headers });
    answer.descriptions.push(description);
  };
  if (def.auth !== 'none') add(401, 'missing or invalid credentials', fail('Unauthorized'));
  // Every POST and PATCH is read by the same middleware (jsonBody): its refusals hold for each.
  if (carriesBody(def.method)) {
    const documentsLimit = def.bodyLimitBytes === undefined && def.acceptsDocuments;
    const limitBytes = def.bodyLimitBytes ?? (documentsLimit ? DEFAULT_MAX_BODY_BYTES : SMALL_BODY_BYTES);
    add(
      400,
      `the body is not JSON (\`Invalid JSON body\`), or nests deeper than ${MAX_JSON_DEPTH} levels`,
      fail('Invalid JSON body'),
    );
    add(
      413,
      `the body is over ${limitBytes} bytes${documentsLimit ? ' (MAX_BODY_BYTES, by default)' : ''}`,
      fail(`Request body exceeds ${limitBytes} bytes`),
    );
    add(
      415,
      'the body is not JSON in UTF-8, or is compressed (Content-Encoding)',
      fail('Content-Type must be application/json'),
      {
        'Accept-Encoding': '`identity` when the body was compressed',
      },
    );
  }
  // Every path parameter, query and body is checked (its schema, and text PostgreSQL can store) before the handler.
  const sample =
    (def.body as Joi.Schema | undefined)?.validate({}, VALIDATION_OPTIONS).error ?? SAMPLE_INVALID_INPUT;
  const invalid = answerTo(invalidInput(def)(sample, 'body'));
  add(
    invalid.status,
    'a path parameter, query parameter or body field is invalid (`response_message` names it)',
    invalid.body,
  );
  if (!def.dependencyFree)
    add(
      503,
      'PostgreSQL or Temporal is unreachable or too slow: nothing was changed, and the same request may be sent again',
      fail(UNAVAILABLE_MESSAGE),
      { 'Retry-After': `Seconds to wait before retrying (${UNAVAILABLE_RETRY_AFTER_SECONDS})` },
    );
  return answers;
}

function operationOf(def: RouteDefinition<never, never, never>): JsonSchema {
  const responses: Record<string, JsonSchema> = {};
  for (const [status, response] of Object.entries(def.responses)) {
    const contentType = response.contentType ?? 'application/json';
    const schema = response.schema ? toSchema(response.schema) : { type: 'string' };
    const example =
      RESPONSE_EXAMPLES[def.operationId]?.[Number(status)] ??
      (contentType !== 'application/json'
        ? (NON_JSON_EXAMPLES[contentType] ?? '(binary)')
        : response.schema === failBodySchema
          ? failureExample(response.description)
          : exampleOf(schema));
    responses[status] = {
      description: response.description,
      ...headersOf(response.headers),
      ...(response.links ? { links: response.links } : {}),
      ...(response.schema || contentType !== 'application/json'
        ? {
            content: {
              [contentType]: { schema, example },
              ...(response.alsoHtml
                ? { 'text/html': { schema: { type: 'string' }, example: NON_JSON_EXAMPLES['text/html'] } }
                : {}),
            },
          }
        : {}),
    };
  }
  for (const [status, answer] of Object.entries(routeBuilderFailures(def)))
    responses[status] ??= {
      description: capitalized(answer.descriptions.join('; ')),
      ...headersOf(answer.headers),
      content: { 'application/json': { schema: toSchema(failBodySchema), example: answer.example } },
    };
  return {
    operationId: def.operationId,
    summary: def.summary,
    ...(def.description ? { description: def.description } : {}),
    tags: def.tags,
    ...(def.auth !== 'none' ? { security: [{ [SECURITY[def.auth].scheme]: [] }] } : { security: [] }),
    parameters: [
      ...parametersOf(def.params as Joi.ObjectSchema | undefined, 'path'),
      ...parametersOf(def.query as Joi.ObjectSchema | undefined, 'query'),
    ],
    ...(def.fileBody
      ? {
          requestBody: {
            required: true,
            description: def.fileBody.description,
            content: { [def.fileBody.contentType]: { schema: { type: 'string', format: 'binary' } } },
          },
        }
      : {}),
    ...(def.body
      ? {
          requestBody: {
            // A POST without a body is read as `{}` (jsonBody), so the body is optional wherever `{}` is valid.
            required: Boolean((def.body as Joi.Schema).validate({}, VALIDATION_OPTIONS).error),
            content: {
              'application/json': {
                schema: toRequestSchema(def.body as Joi.Schema),
                example: REQUEST_EXAMPLES[def.operationId],
              },
            },
          },
        }
      : {}),
    responses,
  };
}

export interface DocumentInfo {
  version: string;
  serverUrl: string;
  /** Decisions taken where the spec and the API contract are silent, recorded for integrators. */
  decisions: string[];
}

/** OpenAPI 3.1, generated from the same route definitions and Joi schemas that serve the requests. */
export function buildOpenApiDocument(
  definitions: RouteDefinition<never, never, never>[],
  info: DocumentInfo,
): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const def of definitions) {
    paths[def.path] ??= {};
    paths[def.path][def.method] = operationOf(def);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Notarization integration API (integrationsv2)',
      version: info.version,
      description: [
        'Remote online notarization sessions, team members and login links for integrators.',
        'Every error body is `{response: "Fail", response_message}`; every response carries `x-request-id`.',
        '',
        // Collapsed: open, the decisions would push the first operation thousands of pixels down.
        `<details><summary>Decisions where the specification is silent (${info.decisions.length})</summary>`,
        '',
        ...info.decisions.map((d) => `- ${d}`),
        '',
        '</details>',
      ].join('\n'),
    },
    servers: [{ url: info.serverUrl }],
    components: {
      securitySchemes: Object.fromEntries(
        Object.values(SECURITY).map((s) => [
          s.scheme,
          { type: 'http', scheme: 'bearer', description: s.description },
        ]),
      ),
    },
    paths,
    webhooks: webhookDescriptions(),
  };
}
