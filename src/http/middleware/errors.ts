import type { Next } from 'koa';
import {
  DomainError,
  UNAVAILABLE_MESSAGE,
  UNAVAILABLE_RETRY_AFTER_SECONDS,
  type DomainErrorKind,
} from '../../domain/errors';
import { isUnavailable } from '../../outages';
import type { AppContext } from '../context';

interface KoaLikeError {
  status?: number;
  expose?: boolean;
  message?: string;
}

const STATUS_OF: Record<DomainErrorKind, number> = {
  malformed: 400,
  unauthenticated: 401,
  refused: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_large: 413,
  unsupported_media: 415,
  rate_limited: 429,
  invalid: 422,
  unavailable: 503,
};

/** The HTTP answer to a domain error: its status, the spec's failure body, and Retry-After when waiting helps. */
export function answerTo(err: DomainError) {
  return {
    status: STATUS_OF[err.kind],
    body: { response: 'Fail', response_message: err.message, ...err.details },
    headers: (err.retryAfterSeconds === undefined
      ? {}
      : { 'Retry-After': String(err.retryAfterSeconds) }) as Record<string, string>,
  };
}

function fail(ctx: AppContext, status: number, message: string, fields: Record<string, unknown> = {}) {
  ctx.status = status;
  ctx.body = { response: 'Fail', response_message: message, ...fields };
}

/**
 * The one place errors become responses: the spec's `{response:'Fail', response_message}` body, never
 * a stack trace; technical detail goes to the log, and to `internal_response` only in development.
 */
export function errorHandler(isDevelopment: boolean) {
  return async (ctx: AppContext, next: Next) => {
    try {
      await next();
      // The router answers methods it implements for no route (TRACE, PATCH…) with a bare 501.
      if (ctx.body == null && (ctx.status === 405 || ctx.status === 501))
        fail(ctx, 405, 'Method not allowed');
      else if (ctx.body == null && ctx.status === 404) fail(ctx, 404, 'Not found');
    } catch (err) {
      if (err instanceof DomainError) {
        const answer = answerTo(err);
        ctx.set(answer.headers);
        ctx.status = answer.status;
        ctx.body = answer.body;
        if (isDevelopment && err.cause)
          (ctx.body as Record<string, unknown>).internal_response = String(err.cause);
        return;
      }
      if (isUnavailable(err)) {
        ctx.state.log.warn({ err }, 'backing service unavailable');
        ctx.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
        fail(ctx, 503, UNAVAILABLE_MESSAGE);
        return;
      }
      const koaError = err as KoaLikeError;
      if (koaError.expose && koaError.status && koaError.status < 500) {
        fail(ctx, koaError.status, koaError.message ?? 'Bad request');
        return;
      }
      ctx.state.log.error({ err }, 'unhandled error');
      fail(
        ctx,
        500,
        'Internal server error',
        isDevelopment ? { internal_response: (err as Error)?.stack ?? String(err) } : {},
      );
    }
  };
}
