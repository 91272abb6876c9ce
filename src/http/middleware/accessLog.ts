import type { Next } from 'koa';
import type { AppContext } from '../context';

/**
 * The path as it may be logged: a signing token is the participant's credential, a login link id
 * opens a member's sign-in page, and Janus's ids name someone's live connection, so each is replaced by
 * its name. (Query strings, where download
 * signatures and login keys travel, are never logged.)
 */
export function loggablePath(path: string): string {
  return path
    .replace(/^\/sign\/[^/]+/, '/sign/:token')
    .replace(/^\/auto\/[^/]+/, '/auto/:login_link_id')
    .replace(/^\/media\/janus\/[^/]+(\/[^/]+)?/, (_all, handle?: string) =>
      handle ? '/media/janus/:session/:handle' : '/media/janus/:session',
    );
}

export function accessLog() {
  return async (ctx: AppContext, next: Next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const level = ctx.status >= 500 ? 'error' : 'info';
      ctx.state.log[level](
        {
          method: ctx.method,
          path: loggablePath(ctx.path),
          status: ctx.status,
          duration_ms: Math.round(ms * 10) / 10,
        },
        'request',
      );
    }
  };
}
