import Koa from 'koa';
import Router from '@koa/router';
import type { Registry } from 'prom-client';
import type { Sequelize } from 'sequelize';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { TemporalHandle } from '../temporal/client';
import { Authenticator } from '../auth/authenticator';
import { resolveJwtSecret, TokenService } from '../auth/tokens';
import { registerSignedDocumentRoutes } from './routes/signedDocuments';
import { DownloadUrls } from '../documents/downloadUrls';
import { linkSecret } from '../crypto/urlSigner';
import { CompletionLinks } from '../participants/completionLinks';
import { LinkValidity } from '../participants/linkValidity';
import { SignedDocumentService } from '../documents/signedDocumentService';
import { buildOpenApiDocument } from './openapi/document';
import { OPENAPI_DECISIONS } from './openapi/decisions';
import type { AppState } from './context';
import { ApiRoutes } from './routeTable';
import { API_PREFIX } from '../publicPaths';
import { requestId } from './middleware/requestId';
import { accessLog } from './middleware/accessLog';
import { httpMetrics } from './middleware/metrics';
import { registerNotaryQueueMetrics } from '../network/queueMetrics';
import { errorHandler } from './middleware/errors';
import { securityHeaders } from './middleware/securityHeaders';
import { idempotency } from './middleware/idempotency';
import { rateLimiters } from './middleware/rateLimit';
import { JsonSealer, replaySecret } from '../crypto/sealedJson';
import { registerDocsAssets, registerOperationRoutes } from './routes/operations';
import { registerAuthRoutes } from './routes/auth';
import { registerSessionRoutes } from './routes/sessions';
import { registerTemplateRoutes } from './routes/templates';
import { registerParticipantRoutes } from './routes/participants';
import { registerMeRoutes } from './routes/me';
import { registerNotarySignatureRoutes } from './routes/notarySignature';
import { registerVerifyRoutes } from './routes/verify';
import { NotarySignatures } from '../signatures/notarySignatures';
import { registerConsolePage } from './routes/console';
import { SessionService } from '../sessions/sessionService';
import { DocumentPool } from '../documents/documentPool';
import { ParticipantJourneys } from '../participants/journey';
import { ParticipantLookup } from '../reads/participantLookup';
import { IdentityProofing } from '../proofing/identityProofing';
import { createIdentityProvider } from '../proofing/createProvider';
import { registerProofingRoutes } from './routes/proofing';
import { IdCheckImages } from '../proofing/idCheckImages';
import { registerIdentityImageRoute } from './routes/identityImages';
import { registerWebhookRoutes } from './routes/webhooks';
import { registerTeamRoutes } from './routes/team';
import { registerCommissionRoutes } from './routes/commissions';
import { registerLoginLinkRoutes } from './routes/loginLinks';
import { TeamService } from '../team/teamService';
import { WebhookEndpointService } from '../webhooks/endpointService';
import { MediaTokens } from '../media/mediaTokens';
import { RoomAccess } from '../media/roomAccess';
import { Signaling } from '../media/signaling';
import { RoomEventRelay } from '../media/roomEventRelay';
import { mediaServerUrl } from '../mediaConfig';
import { RecordingViews } from '../media/recordingViews';
import { createObjectStore } from '../objectStore/createObjectStore';
import { registerMediaRoutes } from './routes/media';
import { registerSigningRoutes } from './routes/signing';
import { registerSessionSigningRoutes } from './routes/sessionSigning';
import { SigningService } from '../signatures/signingService';
import { PlaceEditing } from '../signatures/placeEditing';
import { NotaryIdentification } from '../signatures/notaryIdentification';
import { registerRecordingRoutes } from './routes/recordings';
import { registerEvidenceRoute } from './routes/evidence';
import { EvidenceBundles } from '../sessions/evidenceBundle';
import { registerPageAssets } from './routes/pageAssets';
import { SessionStatusChanges } from '../sessions/statusChanges';

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
  /** The site's own paths (health, signing links, login links), then the API under its prefix. */
  routers: Router<AppState>[];
  routes: ApiRoutes;
  openApiDocument(): Record<string, unknown>;
  /** Stops what the app runs beside its routes (the document workers). */
  close(): Promise<void>;
}

export function createApp(deps: AppDependencies): App {
  const koa = new Koa<AppState>({ proxy: deps.config.trustProxy });
  // Koa's default handler would print stack traces to stderr; errors are logged by errorHandler.
  koa.silent = true;
  const router = new Router<AppState>();
  const apiRouter = new Router<AppState>({ prefix: API_PREFIX });
  const authenticator = new Authenticator(deps.sequelize, deps.tokens);
  const jwtSecret = resolveJwtSecret(deps.config);
  const replays = new JsonSealer(replaySecret(deps.config.idempotencyReplaySecret, jwtSecret));
  const site = new ApiRoutes(router, {
    authenticator,
    maxBodyBytes: deps.config.maxBodyBytes,
    idempotent: idempotency(deps.sequelize, replays),
    rateLimit: rateLimiters(deps.config.rateLimits),
  });
  const api = site.on(apiRouter);
  let document: Record<string, unknown> | undefined;
  const openApiDocument = () =>
    (document ??= buildOpenApiDocument(site.definitions, {
      version: '2.0.0',
      serverUrl: deps.config.publicBaseUrl,
      decisions: OPENAPI_DECISIONS,
    }));
  registerOperationRoutes(site, api, {
    sequelize: deps.sequelize,
    temporal: deps.temporal.connection,
    metrics: deps.metrics,
    metricsToken: deps.config.metricsToken,
    openApiDocument,
  });
  registerDocsAssets(router);
  registerPageAssets(site);
  registerAuthRoutes(api, authenticator, deps.tokens);
  const documents = new DocumentPool({ ...deps.config.documentWork, soffice: deps.config.libreofficePath });
  const signedLinks = linkSecret(deps.config.downloadUrlSecret, jwtSecret);
  const statusChanges = new SessionStatusChanges(deps.sequelize);
  const uses = registerUseCases(site, api, deps, { documents, signedLinks, statusChanges });
  registerLiveAct(site, api, deps, { ...uses, signedLinks, jwtSecret });

  koa.use(requestId(deps.logger));
  koa.use(accessLog());
  koa.use(httpMetrics(deps.metrics));
  for (const headers of securityHeaders(deps.config.publicBaseUrl)) koa.use(headers);
  koa.use(errorHandler(deps.config.isDevelopment));
  for (const r of [router, apiRouter]) {
    koa.use(r.routes());
    koa.use(r.allowedMethods());
  }
  return {
    koa,
    routers: [router, apiRouter],
    routes: site,
    openApiDocument,
    close: async () => {
      await statusChanges.close();
      await documents.close();
    },
  };
}

/** The use cases the API serves, each built from its dependencies and given its routes. */
function registerUseCases(
  site: ApiRoutes,
  api: ApiRoutes,
  deps: AppDependencies,
  {
    documents,
    signedLinks,
    statusChanges,
  }: { documents: DocumentPool; signedLinks: Buffer; statusChanges: SessionStatusChanges },
) {
  const { config, sequelize, temporal } = deps;
  const sessions = new SessionService(sequelize, temporal, config, documents);
  registerSessionRoutes(api, sessions, temporal);
  const downloadUrls = new DownloadUrls(signedLinks, config.publicBaseUrl, config.downloadUrlTtlSeconds);
  const signed = new SignedDocumentService(sequelize, downloadUrls);
  registerSignedDocumentRoutes(api, sessions, signed);
  registerTemplateRoutes(api, sequelize, documents);
  const participants = new ParticipantLookup(sequelize);
  const idImages = new IdCheckImages(sequelize, createObjectStore(config.objectStore));
  const identity = new IdentityProofing(
    sequelize,
    temporal,
    createIdentityProvider(config.identity, sequelize),
    config.identity.policy,
    participants,
    idImages,
  );
  const completionLinks = new CompletionLinks(
    signedLinks,
    config.publicBaseUrl,
    config.completionLinkTtlSeconds,
  );
  const journeys = new ParticipantJourneys(
    sequelize,
    temporal,
    identity,
    participants,
    config.notaryLateAfterMs,
    completionLinks,
  );
  registerParticipantRoutes(site, journeys, statusChanges);
  registerProofingRoutes(site, api, { identity, participants });
  registerIdentityImageRoute(api, sessions, idImages);
  registerConsolePage(site);
  registerMeRoutes(api, { sequelize, temporal, journeys, metrics: deps.metrics });
  registerNotaryQueueMetrics(sequelize, deps.metrics, deps.logger);
  registerNotarySignatureRoutes(api, new NotarySignatures(sequelize));
  registerVerifyRoutes(site, api, sequelize);
  registerWebhookRoutes(api, new WebhookEndpointService(sequelize, temporal, config));
  const team = new TeamService(sequelize, {
    frontUrl: config.frontUrl,
    lifetimeSeconds: config.loginLinkLifetimeSeconds,
    publicBaseUrl: config.publicBaseUrl,
    commissionConfirmationSeconds: config.commissionConfirmationSeconds,
  });
  registerTeamRoutes(api, team);
  registerCommissionRoutes(site, api, { team, sequelize, temporal, taskQueue: config.taskQueue });
  registerLoginLinkRoutes(site, api, {
    team,
    tokens: deps.tokens,
    sequelize,
    signInSeconds: config.consoleSignInSeconds,
  });
  return { journeys, participants, sessions, signed, links: new LinkValidity(completionLinks) };
}

/** The live act: entering its room, the signaling proxy, the media server's events, the recording. */
function registerLiveAct(
  site: ApiRoutes,
  api: ApiRoutes,
  deps: AppDependencies,
  uses: {
    journeys: ParticipantJourneys;
    participants: ParticipantLookup;
    sessions: SessionService;
    signedLinks: Buffer;
    jwtSecret: Uint8Array;
    signed: SignedDocumentService;
    links: LinkValidity;
  },
): void {
  const { config, sequelize, temporal } = deps;
  const tokens = new MediaTokens(uses.jwtSecret, config.media.tokenTtlSeconds);
  registerMediaRoutes(site, api, {
    access: new RoomAccess(sequelize, uses.journeys, uses.participants, tokens, {
      stun: config.media.iceServers,
      turn: config.media.turn,
      policy: config.media.iceTransportPolicy,
    }),
    signaling: new Signaling(sequelize, tokens, () => mediaServerUrl(config.media)),
    relay: new RoomEventRelay(sequelize, temporal),
    eventsSecret: () => config.media.eventsSecret,
  });
  const views = new RecordingViews(
    sequelize,
    createObjectStore(config.objectStore),
    uses.signedLinks,
    config.publicBaseUrl,
    config.downloadUrlTtlSeconds,
  );
  registerRecordingRoutes(api, uses.sessions, views);
  registerEvidenceRoute(api, uses.sessions, new EvidenceBundles(sequelize, uses.signed, views));
  const signing = new SigningService(
    sequelize,
    temporal,
    uses.participants,
    uses.sessions.transactions,
    uses.links,
  );
  registerSigningRoutes(site, signing);
  registerSessionSigningRoutes(api, {
    sessions: uses.sessions,
    signing,
    editing: new PlaceEditing(sequelize, temporal, uses.sessions.transactions),
    identification: new NotaryIdentification(
      sequelize,
      temporal,
      uses.participants,
      uses.sessions.transactions,
    ),
  });
}
