import crypto from 'node:crypto';
import type { Next } from 'koa';
import type { Logger } from '../../logger';
import type { AppContext } from '../context';

const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a caller's x-request-id (if sane) or makes one, echoes it, and scopes the log to it. */
export function requestId(logger: Logger) {
  return async (ctx: AppContext, next: Next) => {
    const incoming = ctx.get('x-request-id');
    const id = ACCEPTABLE.test(incoming) ? incoming : crypto.randomUUID();
    ctx.state.requestId = id;
    ctx.state.log = logger.child({ request_id: id });
    ctx.set('x-request-id', id);
    await next();
  };
}
