import type { Next } from 'koa';
import type { AppContext } from '../context';

export function accessLog() {
  return async (ctx: AppContext, next: Next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const level = ctx.status >= 500 ? 'error' : 'info';
      ctx.state.log[level](
        { method: ctx.method, path: ctx.path, status: ctx.status, duration_ms: Math.round(ms * 10) / 10 },
        'request',
      );
    }
  };
}
