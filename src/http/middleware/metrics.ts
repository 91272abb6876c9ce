import type { Next } from 'koa';
import { Histogram, type Registry } from 'prom-client';
import type { AppContext } from '../context';

/** Request latency by method, matched route template (not raw path: ids would explode cardinality) and status. */
export function httpMetrics(registry: Registry) {
  const histogram = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return async (ctx: AppContext, next: Next) => {
    const end = histogram.startTimer();
    try {
      await next();
    } finally {
      const route = (ctx as unknown as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      end({ method: ctx.method, route: String(route), status: String(ctx.status) });
    }
  };
}
