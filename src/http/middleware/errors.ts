import type { Next } from 'koa';
import { HttpError } from '../errors';
import { isUnavailable } from '../../infra/unavailable';
import type { AppContext } from '../context';

interface KoaLikeError {
  status?: number;
  expose?: boolean;
  message?: string;
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
      if (err instanceof HttpError) {
        ctx.set(err.headers);
        fail(ctx, err.status, err.message, err.fields);
        if (isDevelopment && err.cause)
          (ctx.body as Record<string, unknown>).internal_response = String(err.cause);
        return;
      }
      if (isUnavailable(err)) {
        ctx.state.log.warn({ err }, 'backing service unavailable');
        ctx.set('Retry-After', '5');
        fail(ctx, 503, 'The service is temporarily unavailable; retry the request');
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
