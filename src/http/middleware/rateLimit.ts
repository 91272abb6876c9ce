import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Next } from 'koa';
import { DomainError, rateLimited } from '../../domain/errors';
import type { AppContext, AppMiddleware } from '../context';

/**
 * The public routes a link or a guessed credential reaches: a participant reloading a signing page, a
 * member opening a login link, a client refreshing its token make a few requests a minute; a script
 * hammering them makes thousands. Counted in this process's memory, per minute. What a signing page loads
 * by the dozen (its document's pages, its view) counts only the requests that miss (`link_misses`): a
 * participant's own link is never slowed, a guesser's misses are. `verify`: anyone asking whether a PDF
 * was issued, a few a minute by hand.
 */
export type RateLimitKind = 'link' | 'credentials' | 'link_misses' | 'verify';

export interface RateLimits {
  perLinkPerMinute: number;
  perClientPerMinute: number;
}

export function rateLimiters(limits: RateLimits) {
  const perClient = new RateLimiterMemory({
    keyPrefix: 'client',
    points: limits.perClientPerMinute,
    duration: 60,
  });
  const perLink = new RateLimiterMemory({ keyPrefix: 'link', points: limits.perLinkPerMinute, duration: 60 });
  const consume = async (limiter: RateLimiterMemory, key: string) => {
    try {
      await limiter.consume(key);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw rateLimited(Math.max(1, Math.ceil(err.msBeforeNext / 1000)));
      throw err;
    }
  };
  return (kind: RateLimitKind): AppMiddleware =>
    async (ctx: AppContext, next: Next) => {
      // The link's own id: one link is limited wherever its requests come from.
      const link = ctx.params.token ?? ctx.params.id;
      if (kind === 'link_misses')
        return next().catch(async (err: unknown) => {
          if (err instanceof DomainError && err.kind === 'not_found')
            await consume(perClient, `link:${ctx.ip}`);
          throw err;
        });
      await consume(perClient, `${kind}:${ctx.ip}`);
      if (kind === 'link' && link) await consume(perLink, link);
      return next();
    };
}
