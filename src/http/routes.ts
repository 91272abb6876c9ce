import type { Router, RouterMiddleware } from '@koa/router';
import type Joi from 'joi';
import type { Authenticator } from '../auth/authenticator';
import type { KeyKind } from '../db/models';
import { malformed, DomainError } from '../domain/errors';
import { VALIDATION_OPTIONS } from '../validation/options';
import { unstorableTextError, unstorableTextPath } from '../validation/text';
import { jsonBody } from './middleware/jsonBody';
import { requireKey, requireSessionActor, requireTeamMember } from './middleware/auth';
import type { AppContext, AppState } from './context';

export type HttpMethod = 'get' | 'post' | 'delete';

export interface ResponseDefinition {
  description: string;
  schema?: Joi.Schema;
  /** Defaults to application/json. */
  contentType?: string;
  headers?: Record<string, string>;
}

export interface Input<B, Q, P> {
  body: B;
  query: Q;
  params: P;
}

export interface RouteDefinition<B = unknown, Q = unknown, P = unknown> {
  method: HttpMethod;
  /** OpenAPI form, e.g. `/api/integrationsv2/sessions/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** `session_actor`: the API key or a team member's token (notary actions); `team_member`: the token only. */
  auth: KeyKind | 'session_actor' | 'team_member' | 'none';
  params?: Joi.ObjectSchema<P>;
  query?: Joi.ObjectSchema<Q>;
  body?: Joi.Schema<B>;
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

/**
 * Every route is declared once here: the same definition registers the koa handler, validates its
 * input with its Joi schemas and describes it in the OpenAPI document, so the two cannot drift.
 */
export class ApiRoutes {
  readonly definitions: RouteDefinition<never, never, never>[] = [];

  constructor(
    private readonly router: Router<AppState>,
    private readonly authenticator: Authenticator,
    private readonly maxBodyBytes: number,
    private readonly idempotent: RouterMiddleware<AppState>,
  ) {}

  add<B = unknown, Q = unknown, P = unknown>(def: RouteDefinition<B, Q, P>): void {
    this.definitions.push(def as unknown as RouteDefinition<never, never, never>);
    const chain: RouterMiddleware<AppState>[] = [];
    if (def.auth === 'session_actor') {
      chain.push(requireSessionActor(this.authenticator) as unknown as RouterMiddleware<AppState>);
    } else if (def.auth === 'team_member') {
      chain.push(requireTeamMember(this.authenticator) as unknown as RouterMiddleware<AppState>);
    } else if (def.auth !== 'none') {
      chain.push(requireKey(this.authenticator, def.auth) as unknown as RouterMiddleware<AppState>);
    }
    if (def.method === 'post') {
      chain.push(jsonBody(this.maxBodyBytes) as unknown as RouterMiddleware<AppState>);
      // Needs the caller's account and the body's hash, so it runs after both.
      if (def.auth !== 'none') chain.push(this.idempotent);
    }
    const invalid = def.onInvalid ?? defaultInvalid;
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
    chain.push((async (ctx: AppContext) => {
      storable(ctx.params, 'params');
      storable(ctx.query, 'query');
      storable(ctx.request.body, 'body');
      const params = check(def.params, ctx.params, 'params');
      const query = check(def.query, ctx.query, 'query');
      const body = def.validatesBody ? (ctx.request.body as B) : check(def.body, ctx.request.body, 'body');
      await def.handler(ctx, { body, query, params });
    }) as unknown as RouterMiddleware<AppState>);
    this.router.register(def.path.replace(/\{(\w+)\}/g, ':$1'), [def.method], chain, {
      name: def.operationId,
    });
  }
}
