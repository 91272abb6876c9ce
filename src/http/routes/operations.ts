import { API_PREFIX } from '../../publicPaths';
import fs from 'node:fs';
import path from 'node:path';
import type { Router } from '@koa/router';
import Joi from 'joi';
import type { Registry } from 'prom-client';
import type { Sequelize } from 'sequelize';
import type { Connection } from '@temporalio/client';
import type { ApiRoutes, RouteDefinition } from '../routeTable';
import type { AppState } from '../context';
import { temporalReachable } from '../../temporal/client';
import { execute } from '../../db/query';
import { credentialOf } from '../../auth/authenticator';
import { sameSecret } from '../../auth/keys';
import { notFound } from '../../domain/errors';
import { failBodySchema } from '../openapi/document';

export interface OperationsDeps {
  sequelize: Sequelize;
  temporal: Connection;
  metrics: Registry;
  /** METRICS_TOKEN: the bearer token Prometheus sends; without one /metrics is not served. */
  metricsToken: string | undefined;
  openApiDocument: () => Record<string, unknown>;
}

async function databaseReachable(sequelize: Sequelize): Promise<boolean> {
  try {
    await execute(sequelize, 'SELECT 1');
    return true;
  } catch {
    return false;
  }
}

const checksSchema = Joi.object({
  status: Joi.string().valid('ok', 'unavailable'),
  checks: Joi.object({
    database: Joi.string().valid('ok', 'unreachable'),
    temporal: Joi.string().valid('ok', 'unreachable'),
  }),
}).label('Readiness');

/** Liveness: the process is up */
function healthzRoute(): RouteDefinition<unknown> {
  return {
    method: 'get',
    path: '/healthz',
    operationId: 'healthz',
    dependencyFree: true,
    summary: 'Liveness: the process is up',
    tags: ['Operations'],
    auth: 'none',
    responses: { 200: { description: 'Alive', schema: Joi.object({ status: Joi.string().valid('ok') }) } },
    handler: async (ctx) => {
      ctx.body = { status: 'ok' };
    },
  };
}

/** Readiness: PostgreSQL and Temporal are reachable */
function readyzRoute(deps: OperationsDeps): RouteDefinition<unknown> {
  return {
    method: 'get',
    path: '/readyz',
    operationId: 'readyz',
    summary: 'Readiness: PostgreSQL and Temporal are reachable',
    tags: ['Operations'],
    auth: 'none',
    responses: {
      200: { description: 'Ready', schema: checksSchema },
      503: { description: 'A dependency is unreachable', schema: checksSchema },
    },
    handler: async (ctx) => {
      const [database, temporal] = await Promise.all([
        databaseReachable(deps.sequelize),
        temporalReachable(deps.temporal),
      ]);
      const ready = database && temporal;
      ctx.status = ready ? 200 : 503;
      ctx.body = {
        status: ready ? 'ok' : 'unavailable',
        checks: { database: database ? 'ok' : 'unreachable', temporal: temporal ? 'ok' : 'unreachable' },
      };
    },
  };
}

/** Prometheus metrics (HTTP latency by route and status, process metrics, the on-demand notary queue) */
function metricsRoute(deps: OperationsDeps): RouteDefinition<unknown> {
  return {
    method: 'get',
    path: '/metrics',
    operationId: 'metrics',
    dependencyFree: true,
    summary:
      'Prometheus metrics (HTTP latency by route and status, process metrics, the on-demand notary queue)',
    description:
      'For the operator’s scraper only: `Authorization: Bearer <METRICS_TOKEN>`. Without METRICS_TOKEN set, and ' +
      'to any other caller, 404 (per-route counts tell an outsider what the service is busy with).',
    tags: ['Operations'],
    auth: 'none',
    responses: {
      200: { description: 'Prometheus text exposition format', contentType: 'text/plain' },
      404: { description: 'No METRICS_TOKEN set, or the caller did not send it', schema: failBodySchema },
    },
    handler: async (ctx) => {
      const sent = credentialOf(ctx.get('authorization'));
      if (!deps.metricsToken || !sent || !sameSecret(sent, deps.metricsToken)) throw notFound('Not found');
      ctx.type = deps.metrics.contentType;
      ctx.body = await deps.metrics.metrics();
    },
  };
}

/** This OpenAPI document */
function openapiRoute(deps: OperationsDeps): RouteDefinition<unknown> {
  return {
    method: 'get',
    path: '/openapi.json',
    operationId: 'openapi',
    dependencyFree: true,
    summary: 'This OpenAPI document',
    tags: ['Operations'],
    auth: 'none',
    responses: { 200: { description: 'OpenAPI 3.1 document' } },
    handler: async (ctx) => {
      ctx.body = deps.openApiDocument();
    },
  };
}

/** Interactive API documentation rendering the OpenAPI document */
function docsRoute(): RouteDefinition<unknown> {
  return {
    method: 'get',
    path: '/docs',
    operationId: 'docs',
    dependencyFree: true,
    summary: 'Interactive API documentation rendering the OpenAPI document',
    tags: ['Operations'],
    auth: 'none',
    responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
    handler: async (ctx) => {
      ctx.type = 'html';
      ctx.body = DOCS_PAGE;
    },
  };
}

export function registerOperationRoutes(site: ApiRoutes, api: ApiRoutes, deps: OperationsDeps): void {
  site.add(healthzRoute());
  site.add(readyzRoute(deps));
  site.add(metricsRoute(deps));
  api.add(openapiRoute(deps));
  site.add(docsRoute());
}

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Notarization integration API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="stylesheet" href="/assets/docs.css">
</head>
<body>
  <div id="swagger-ui" data-spec="${API_PREFIX}/openapi.json"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/assets/docs.js"></script>
</body>
</html>`;

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css',
  'swagger-ui-bundle.js': 'application/javascript',
};

/**
 * Swagger UI's files come from the npm package: the docs page works without internet access. Its directory is
 * found from its package.json: the package's own entry point loads its whole bundle and a preset into the
 * process only to say where it lies.
 */
export function registerDocsAssets(router: Router<AppState>): void {
  const root = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  router.get('/docs/assets/:file', async (ctx) => {
    const file = ctx.params.file;
    const type = ASSETS[file];
    if (!type) return;
    ctx.type = type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = fs.createReadStream(path.join(root, file));
  });
}
