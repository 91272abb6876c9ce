import Koa from 'koa';
import Router, { type RouterMiddleware } from '@koa/router';
import type { Registry } from 'prom-client';
import type { Sequelize } from 'sequelize';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { TemporalHandle } from '../temporal/client';
import { Authenticator } from '../auth/authenticator';
import { resolveJwtSecret, TokenService } from '../auth/tokens';
import { registerSignedDocumentRoutes } from './routes/signedDocuments';
import { DownloadUrls, downloadSecret } from '../documents/downloadUrls';
import { SignedDocumentService } from '../documents/signedDocumentService';
import { buildOpenApiDocument } from './openapi/document';
import { OPENAPI_DECISIONS } from './openapi/decisions';
import type { AppState } from './context';
import { ApiRoutes } from './routes';
import { requestId } from './middleware/requestId';
import { accessLog } from './middleware/accessLog';
import { httpMetrics } from './middleware/metrics';
import { errorHandler } from './middleware/errors';
import { idempotency } from './middleware/idempotency';
import { JsonSealer, replaySecret } from '../crypto/sealedJson';
import { registerDocsAssets, registerOperationRoutes } from './routes/operations';
import { registerAuthRoutes } from './routes/auth';
import { registerSessionRoutes } from './routes/sessions';
import { registerTemplateRoutes } from './routes/templates';
import { registerSigningRoutes } from './routes/signing';
import { SessionService } from '../sessions/sessionService';
import { SigningService } from '../sessions/signingService';
import { registerWebhookRoutes } from './routes/webhooks';
import { registerTeamRoutes } from './routes/team';
import { registerLoginLinkRoutes } from './routes/loginLinks';
import { TeamService } from '../team/teamService';
import { WebhookEndpointService } from '../webhooks/endpointService';

export interface AppDependencies {
  config: Config;
  logger: Logger;
  sequelize: Sequelize;
  temporal: TemporalHandle;
  metrics: Registry;
  tokens: TokenService;
}

export interface App {
  koa: Koa<AppState>;
  router: Router<AppState>;
  routes: ApiRoutes;
  openApiDocument(): Record<string, unknown>;
}

export function createApp(deps: AppDependencies): App {
  const koa = new Koa<AppState>({ proxy: true });
  // Koa's default handler would print stack traces to stderr; errors are logged by errorHandler.
  koa.silent = true;
  const router = new Router<AppState>();
  const authenticator = new Authenticator(deps.tokens);
  const jwtSecret = resolveJwtSecret(deps.config);
  const replays = new JsonSealer(replaySecret(deps.config.idempotencyReplaySecret, jwtSecret));
  const routes = new ApiRoutes(
    router,
    authenticator,
    deps.config.maxBodyBytes,
    idempotency(deps.sequelize, replays) as unknown as RouterMiddleware<AppState>,
  );

  let document: Record<string, unknown> | undefined;
  const openApiDocument = () =>
    (document ??= buildOpenApiDocument(routes.definitions, {
      version: '2.0.0',
      serverUrl: deps.config.publicBaseUrl,
      decisions: OPENAPI_DECISIONS,
    }));

  registerOperationRoutes(routes, {
    sequelize: deps.sequelize,
    temporal: deps.temporal.connection,
    metrics: deps.metrics,
    openApiDocument,
  });
  registerDocsAssets(router);
  registerAuthRoutes(routes, authenticator, deps.tokens);
  const sessions = new SessionService(deps.sequelize, deps.temporal, deps.config);
  registerSessionRoutes(routes, sessions, deps.temporal);
  const downloadUrls = new DownloadUrls(
    downloadSecret(deps.config.downloadUrlSecret, jwtSecret),
    deps.config.publicBaseUrl,
    deps.config.downloadUrlTtlSeconds,
  );
  registerSignedDocumentRoutes(routes, sessions, new SignedDocumentService(deps.sequelize, downloadUrls));
  registerTemplateRoutes(routes, deps.sequelize);
  registerSigningRoutes(routes, new SigningService(deps.sequelize, deps.temporal));
  registerWebhookRoutes(routes, new WebhookEndpointService(deps.sequelize, deps.temporal, deps.config));
  const team = new TeamService(deps.sequelize, {
    frontUrl: deps.config.frontUrl,
    lifetimeSeconds: deps.config.loginLinkLifetimeSeconds,
  });
  registerTeamRoutes(routes, team);
  registerLoginLinkRoutes(routes, team, deps.tokens);

  koa.use(requestId(deps.logger));
  koa.use(accessLog());
  koa.use(httpMetrics(deps.metrics));
  koa.use(errorHandler(deps.config.isDevelopment));
  koa.use(router.routes());
  koa.use(router.allowedMethods());
  return { koa, router, routes, openApiDocument };
}
