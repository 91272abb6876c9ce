import type { Router } from '@koa/router';
import type Joi from 'joi';
import type { Authenticator } from '../auth/authenticator';
import type { KeyKind } from '../auth/keyStore';
import { malformed, DomainError } from '../domain/errors';
import { VALIDATION_OPTIONS } from '../validation/options';
import { unstorableTextError, unstorableTextPath } from '../validation/text';
import { jsonBody } from './middleware/jsonBody';
import { hashedBody } from './middleware/hashedBody';
import type { RateLimitKind } from './middleware/rateLimit';
import {
  requireKey,
  requirePerson,
  requireSessionActor,
  requireSigningLink,
  requireTeamMember,
} from './middleware/auth';
import type { AppContext, AppMiddleware, AppState } from './context';

export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';

/** The methods whose requests carry a JSON body, read by the same middleware (jsonBody). */
export const carriesBody = (method: HttpMethod) => method === 'post' || method === 'patch';

export interface ResponseDefinition {
  description: string;
  schema?: Joi.Schema;
  /** Defaults to application/json. */
  contentType?: string;
  /** Also answered as an HTML page: to a browser, or any caller whose Accept does not prefer JSON. */
  alsoHtml?: boolean;
  headers?: Record<string, string>;
  /** Operations an id in this answer leads to (OpenAPI links), for a client or a fuzzer to follow. */
  links?: Record<string, { operationId: string; parameters: Record<string, string> }>;
}

/** Links from an answer's id field to the operations that take it as their path parameter `id`. */
export const linksFrom = (field: string, operationIds: string[]): ResponseDefinition['links'] =>
  Object.fromEntries(
    operationIds.map((operationId) => [
      operationId,
      { operationId, parameters: { id: `$response.body#/${field}` } },
    ]),
  );

export interface Input<B, Q, P> {
  body: B;
  query: Q;
  params: P;
}

export interface RouteDefinition<B = unknown, Q = unknown, P = unknown> {
  method: HttpMethod;
  /** OpenAPI form relative to the router's prefix, e.g. `/sessions/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /**
   * `session_actor`: the API key, a team member's or a network notary's token (notary actions);
   * `team_member`: the member's token only; `person`: a team member's or network person's own token.
   */
  auth: KeyKind | 'session_actor' | 'team_member' | 'person' | 'none';
  params?: Joi.ObjectSchema<P>;
  query?: Joi.ObjectSchema<Q>;
  body?: Joi.Schema<B>;
  /** The path's `{token}` is a signing link: an unknown one is a 404 before the body is read. */
  signingLink?: boolean;
  /** A public route a link or a credential guess reaches: rate-limited, 429 with Retry-After. */
  rateLimit?: RateLimitKind;
  /** Answers from the process alone, never from PostgreSQL or Temporal: it has no 503. */
  dependencyFree?: boolean;
  /** Takes documents in its body: the large limit (MAX_BODY_BYTES) instead of SMALL_BODY_BYTES. */
  acceptsDocuments?: boolean;
  /**
   * The JSON body may also come as `text/plain`: what `navigator.sendBeacon` sends, as janus.js does to end
   * its connection while the page unloads.
   */
  acceptsBeacon?: boolean;
  /** A body limit of its own, for a route that takes something between a small body and documents (ID photos). */
  bodyLimitBytes?: number;
  /** Takes a file, not JSON: read as it arrives into a HashedBody (its sha256, size and first bytes). */
  fileBody?: { contentType: string; limitBytes: number; description: string };
  /** The handler validates the body itself (against `body`, which still documents it). */
  validatesBody?: boolean;
  /** Report every invalid field rather than the first (spec 7.3's `errors` list). */
  reportAllErrors?: boolean;
  /** Turns a Joi failure into the route's own error (e.g. spec 7.1's 403 body); default a 400. */
  onInvalid?: (error: Joi.ValidationError, part: 'body' | 'query' | 'params') => DomainError;
  responses: Record<number, ResponseDefinition>;
  handler: (ctx: AppContext, input: Input<B, Q, P>) => Promise<void>;
}

function defaultInvalid(error: Joi.ValidationError): DomainError {
  return malformed(error.details[0]?.message ?? 'Invalid request');
}

/** What the route answers to an invalid body, query or path parameter. */
export const invalidInput = (def: Pick<RouteDefinition, 'onInvalid'>) => def.onInvalid ?? defaultInvalid;

/**
 * Every route is declared once here: the same definition registers the koa handler, validates its
 * input with its Joi schemas and describes it in the OpenAPI document, so the two cannot drift.
 */
/** Every JSON body but a document upload is small; a larger one is refused from its Content-Length. */
export const SMALL_BODY_BYTES = 64 * 1024;

export interface RouteMiddlewares {
  authenticator: Authenticator;
  maxBodyBytes: number;
  idempotent: AppMiddleware;
  rateLimit: (kind: RateLimitKind) => AppMiddleware;
}

const TOO_MANY_REQUESTS: ResponseDefinition = {
  description: 'Too many requests from this client or on this link; retry after `Retry-After` seconds',
  headers: { 'Retry-After': 'Seconds until the next request is accepted' },
};

export class ApiRoutes {
  constructor(
    private readonly router: Router<AppState>,
    private readonly middlewares: RouteMiddlewares,
    readonly definitions: RouteDefinition<never, never, never>[] = [],
  ) {}

  /** The same declarations on another router (e.g. one with the API's prefix), documented together. */
  on(router: Router<AppState>): ApiRoutes {
    return new ApiRoutes(router, this.middlewares, this.definitions);
  }

  /** Registers the route under the router's prefix; the OpenAPI document gets its full path. */
  add<B = unknown, Q = unknown, P = unknown>(def: RouteDefinition<B, Q, P>): void {
    const { authenticator, maxBodyBytes, idempotent, rateLimit } = this.middlewares;
    this.definitions.push({
      ...def,
      path: `${this.router.opts.prefix ?? ''}${def.path}`,
      responses: def.rateLimit ? { ...def.responses, 429: TOO_MANY_REQUESTS } : def.responses,
    } as unknown as RouteDefinition<never, never, never>);
    const chain: AppMiddleware[] = def.rateLimit ? [rateLimit(def.rateLimit)] : [];
    if (def.signingLink) chain.push(requireSigningLink(authenticator));
    if (def.auth === 'session_actor') {
      chain.push(requireSessionActor(authenticator));
    } else if (def.auth === 'team_member') {
      chain.push(requireTeamMember(authenticator));
    } else if (def.auth === 'person') {
      chain.push(requirePerson(authenticator));
    } else if (def.auth !== 'none') {
      chain.push(requireKey(authenticator, def.auth));
    }
    if (def.fileBody) chain.push(hashedBody(def.fileBody.contentType, def.fileBody.limitBytes));
    else if (carriesBody(def.method)) {
      // Only authenticated callers reach this, and only document routes may send a document-sized body.
      chain.push(
        jsonBody(def.bodyLimitBytes ?? (def.acceptsDocuments ? maxBodyBytes : SMALL_BODY_BYTES), {
          uploads: def.acceptsDocuments,
          beacon: def.acceptsBeacon,
        }),
      );
      // Needs the caller's account and the body's hash, so it runs after both.
      if (def.auth !== 'none') chain.push(idempotent);
    }
    const invalid = invalidInput(def);
    const check = <T>(
      schema: Joi.Schema<T> | undefined,
      value: unknown,
      part: 'body' | 'query' | 'params',
    ): T => {
      if (!schema) return value as T;
      const { error, value: validated } = schema.validate(value, {
        ...VALIDATION_OPTIONS,
        abortEarly: !def.reportAllErrors,
      });
      if (error) throw invalid(error, part);
      return validated as T;
    };
    const storable = (value: unknown, part: 'body' | 'query' | 'params') => {
      const path = unstorableTextPath(value);
      if (path) throw invalid(unstorableTextError(path, value), part);
    };
    chain.push(async (ctx: AppContext) => {
      storable(ctx.params, 'params');
      storable(ctx.query, 'query');
      if (!def.fileBody) storable(ctx.request.body, 'body');
      const params = check(def.params, ctx.params, 'params');
      const query = check(def.query, ctx.query, 'query');
      const body =
        def.validatesBody || def.fileBody
          ? (ctx.request.body as B)
          : check(def.body, ctx.request.body, 'body');
      await def.handler(ctx, { body, query, params });
    });
    this.router.register(def.path.replace(/\{(\w+)\}/g, ':$1'), [def.method], chain, {
      name: def.operationId,
    });
  }
}
