import os from 'node:os';
import path from 'node:path';
import { ConfigError } from './configError';
import { duration, durations, integer, optional, url, type Env } from './envValues';
import { mediaConfig, type MediaConfig } from './mediaConfig';
import { workerConfig, type WorkerConfig } from './workerConfig';
import { objectStoreConfig } from './objectStore/createObjectStore';
import type { ObjectStoreConfig } from './objectStore/objectStore';

/**
 * Runtime configuration, read once from the environment. Every variable is documented in docs/configuration.md;
 * defaults are the embedded development setup, so `npm start` needs none of them.
 */
export interface Config extends WorkerConfig {
  nodeEnv: string;
  isDevelopment: boolean;
  host: string;
  port: number;
  publicBaseUrl: string;
  frontUrl: string;
  dataDir: string;
  databaseUrl?: string;
  temporalAddress?: string;
  temporalNamespace: string;
  taskQueue: string;
  temporalCliPath?: string;
  temporalDevPort: number;
  temporalUiPort: number;
  embeddedPostgresPort: number;
  jwtSecret?: string;
  accessTokenTtlSeconds: number;
  /** How long a notary console sign-in renews its tokens before its person signs in again. */
  consoleSignInSeconds: number;
  refreshTokenTtlSeconds: number;
  maxBodyBytes: number;
  /** Live refresh-token families one key may hold; issuing past it revokes the oldest. */
  maxLiveRefreshTokensPerKey: number;
  /** The pool that prepares uploads off the event loop: threads, heap per thread, time per document. */
  documentWork: { threads: number; conversionThreads: number; memoryMb: number; timeoutMs: number };
  finalizationWork: { threads: number; memoryMb: number };
  /** Trust X-Forwarded-For for the client address (only behind a proxy that sets it). */
  trustProxy: boolean;
  /** Requests per minute on one signing or login link, and from one client address, on the public routes. */
  rateLimits: { perLinkPerMinute: number; perClientPerMinute: number };
  logLevel: string;
  smtpUrl?: string;
  /** Waits between webhook attempts, from WEBHOOK_RETRY_SCHEDULE. */
  webhookRetryDelaysMs: number[];
  /** Private and loopback webhook targets: refused outside development unless explicitly allowed. */
  allowPrivateWebhookTargets: boolean;
  webhookTimeoutMs: number;
  /** How long a replaced webhook secret keeps signing beside the new one (WEBHOOK_SECRET_ROTATION_GRACE). */
  webhookSecretGraceMs: number;
  /** How long an on-demand session waits before asking the network for a notary again. */
  notaryRetryIntervalMs: number;
  /** How long a network notary has to accept an offer before it goes to the next notary. */
  notaryOfferTimeoutMs: number;
  /** How long a network notary who accepted has to start before the session goes back to the queue. */
  notaryStartTimeoutMs: number;
  /** Attempts at notarizing a document that fails for a reason other than an outage, before it is marked failed. */
  finalizeAttempts: number;
  /** LibreOffice's `soffice`, for DOCX conversion at upload. */
  libreofficePath: string;
  /** PKCS#12 file and passphrase of the document-signing certificate; generated under DATA_DIR outside production. */
  signingP12Path?: string;
  signingP12Passphrase?: string;
  /** HMAC secret of signed-document download URLs; derived from the JWT secret when unset. */
  downloadUrlSecret?: string;
  /** Key of the sealed (AES-GCM) answers kept for Idempotency-Key replays; derived from JWT_SECRET if unset. */
  idempotencyReplaySecret?: string;
  downloadUrlTtlSeconds: number;
  /** Lifetime of the document links in completion e-mails. */
  completionLinkTtlSeconds: number;
  /** Login links live 12 hours (spec 2.9); shorter only in tests. */
  loginLinkLifetimeSeconds: number;
  /** How often the Temporal Schedule removes expired login links. */
  loginLinkCleanupIntervalMs: number;
  shutdownGraceMs: number;
  /** Identity proofing of participants: the provider, and the rules (Texas's by default). */
  identity: IdentityConfig;
  /** How long a notary has to confirm, from their e-mail, a commission asked for through a login link. */
  commissionConfirmationSeconds: number;
  /** The bearer token of GET /metrics; unset: /metrics is not served. */
  metricsToken: string | undefined;
  /** How long after a participant is admitted (or a scheduled session opens) the notary counts as late. */
  notaryLateAfterMs: number;
  /** The media server of live sessions, and their recordings. */
  media: MediaConfig;
  objectStore: ObjectStoreConfig;
}

export interface IdentityConfig {
  /** `sandbox`: the deterministic provider of development and tests. */
  provider: 'sandbox';
  /** Why the API refuses to start on the sandbox here (any NODE_ENV but development or test), if it does. */
  sandboxRefusal: string | undefined;
  policy: IdentityPolicy;
}

/** Texas Administrative Code §87.70: 5 questions of 5 choices, 80 % in 2 minutes, one retake in 24 hours. */
export interface IdentityPolicy {
  kbaQuestions: number;
  kbaChoices: number;
  kbaPassPercent: number;
  kbaTimeLimitMs: number;
  /** Share of a retake's questions that were not asked in the attempt before it. */
  kbaRetakeNewPercent: number;
  /** Attempts (the first and its retakes) before a lockout. */
  attempts: number;
  /** A retake counts with the attempt before it when started within this window. */
  retakeWindowMs: number;
  lockoutMs: number;
}

/** MAX_BODY_BYTES unless set: five 10 MB documents in base64 (4/3 larger) plus the rest of the body. */
export const DEFAULT_MAX_BODY_BYTES = 75 * 1024 * 1024;

export function loadConfig(env: Env = process.env): Config {
  const nodeEnv = optional(env, 'NODE_ENV') ?? 'development';
  const port = integer(env, 'PORT', 3000);
  const publicBaseUrl = url(env, 'PUBLIC_BASE_URL', `http://localhost:${port}`);
  const dataDir = path.resolve(optional(env, 'DATA_DIR') ?? '.data');
  return {
    nodeEnv,
    isDevelopment: nodeEnv === 'development',
    host: optional(env, 'HOST') ?? '0.0.0.0',
    port,
    publicBaseUrl,
    frontUrl: url(env, 'FRONT_URL', publicBaseUrl),
    dataDir,
    databaseUrl: optional(env, 'DATABASE_URL'),
    temporalAddress: optional(env, 'TEMPORAL_ADDRESS'),
    temporalNamespace: optional(env, 'TEMPORAL_NAMESPACE') ?? 'default',
    taskQueue: optional(env, 'TEMPORAL_TASK_QUEUE') ?? 'notarization-sessions',
    ...workerConfig(env),
    temporalCliPath: optional(env, 'TEMPORAL_CLI_PATH'),
    temporalDevPort: integer(env, 'TEMPORAL_DEV_PORT', 7233),
    temporalUiPort: integer(env, 'TEMPORAL_UI_PORT', 8233),
    embeddedPostgresPort: integer(env, 'EMBEDDED_POSTGRES_PORT', 54329),
    jwtSecret: optional(env, 'JWT_SECRET'),
    accessTokenTtlSeconds: integer(env, 'ACCESS_TOKEN_TTL_SECONDS', 900),
    consoleSignInSeconds: integer(env, 'CONSOLE_SIGN_IN_SECONDS', 43_200),
    refreshTokenTtlSeconds: integer(env, 'REFRESH_TOKEN_TTL_SECONDS', 30 * 24 * 3600),
    maxBodyBytes: integer(env, 'MAX_BODY_BYTES', DEFAULT_MAX_BODY_BYTES),
    trustProxy: optional(env, 'TRUST_PROXY') === 'true',
    ...documentWorkConfig(env),
    maxLiveRefreshTokensPerKey: integer(env, 'MAX_LIVE_REFRESH_TOKENS_PER_KEY', 1000),
    rateLimits: {
      perLinkPerMinute: integer(env, 'RATE_LIMIT_PER_LINK_PER_MINUTE', 60),
      perClientPerMinute: integer(env, 'RATE_LIMIT_PER_CLIENT_PER_MINUTE', 600),
    },
    logLevel: optional(env, 'LOG_LEVEL') ?? 'info',
    metricsToken: optional(env, 'METRICS_TOKEN'),
    smtpUrl: optional(env, 'SMTP_URL'),
    webhookRetryDelaysMs: durations(env, 'WEBHOOK_RETRY_SCHEDULE', '5s,5m,30m,2h,5h,10h,10h'),
    allowPrivateWebhookTargets:
      nodeEnv === 'development' || optional(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS') === 'true',
    webhookTimeoutMs: duration('WEBHOOK_TIMEOUT', optional(env, 'WEBHOOK_TIMEOUT') ?? '15s'),
    webhookSecretGraceMs: duration(
      'WEBHOOK_SECRET_ROTATION_GRACE',
      optional(env, 'WEBHOOK_SECRET_ROTATION_GRACE') ?? '24h',
    ),
    notaryRetryIntervalMs: duration('NOTARY_RETRY_INTERVAL', optional(env, 'NOTARY_RETRY_INTERVAL') ?? '30s'),
    notaryOfferTimeoutMs: duration('NOTARY_OFFER_TIMEOUT', optional(env, 'NOTARY_OFFER_TIMEOUT') ?? '2m'),
    notaryStartTimeoutMs: duration('NOTARY_START_TIMEOUT', optional(env, 'NOTARY_START_TIMEOUT') ?? '15m'),
    finalizeAttempts: integer(env, 'FINALIZE_ATTEMPTS', 5),
    libreofficePath: optional(env, 'LIBREOFFICE_PATH') ?? 'soffice',
    signingP12Path: optional(env, 'SIGNING_P12_PATH'),
    signingP12Passphrase: env.SIGNING_P12_PASSPHRASE,
    downloadUrlSecret: optional(env, 'DOWNLOAD_URL_SECRET'),
    idempotencyReplaySecret: optional(env, 'IDEMPOTENCY_REPLAY_SECRET'),
    downloadUrlTtlSeconds: integer(env, 'DOWNLOAD_URL_TTL_SECONDS', 15 * 60),
    completionLinkTtlSeconds: integer(env, 'COMPLETION_LINK_TTL_SECONDS', 7 * 24 * 3600),
    loginLinkLifetimeSeconds: integer(env, 'LOGIN_LINK_TTL_SECONDS', 43_200),
    commissionConfirmationSeconds:
      duration('COMMISSION_CONFIRMATION_TTL', optional(env, 'COMMISSION_CONFIRMATION_TTL') ?? '24h') / 1000,
    loginLinkCleanupIntervalMs: duration(
      'LOGIN_LINK_CLEANUP_INTERVAL',
      optional(env, 'LOGIN_LINK_CLEANUP_INTERVAL') ?? '15m',
    ),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 10_000),
    identity: identityConfig(env, nodeEnv),
    notaryLateAfterMs: duration('NOTARY_LATE_AFTER', optional(env, 'NOTARY_LATE_AFTER') ?? '5m'),
    media: mediaConfig(env, dataDir, port),
    objectStore: objectStoreConfig(env, dataDir),
  };
}

function documentWorkConfig(env: Env): Pick<Config, 'documentWork' | 'finalizationWork'> {
  // Cores − 1, from 2 to 4, for each of the two document lanes.
  const documentThreadsByDefault = Math.max(2, Math.min(4, os.availableParallelism() - 1));
  return {
    documentWork: {
      // Never one: on 2 cores, one thread made it the creates' longest queue under load.
      threads: integer(env, 'DOCUMENT_THREADS', documentThreadsByDefault),
      // DOCX have a lane of their own; each of its threads waits on one LibreOffice process.
      conversionThreads: integer(env, 'DOCUMENT_CONVERSION_THREADS', documentThreadsByDefault),
      memoryMb: integer(env, 'DOCUMENT_MEMORY_MB', 512),
      // Above LibreOffice's own 120 s for one DOCX.
      timeoutMs: duration('DOCUMENT_TIMEOUT', optional(env, 'DOCUMENT_TIMEOUT') ?? '150s'),
    },
    finalizationWork: {
      threads: integer(env, 'FINALIZATION_THREADS', Math.max(1, Math.min(2, os.availableParallelism() - 1))),
      // Twice a document thread's: what the create could read in 512 MB is read, stamped and written again
      // here (a 2,000-page, 9 MB PDF with 200,000 names of its own finalized within 512 MB).
      memoryMb: integer(env, 'FINALIZATION_MEMORY_MB', 1024),
    },
  };
}

function identityConfig(env: Env, nodeEnv: string): IdentityConfig {
  const provider = optional(env, 'IDENTITY_PROVIDER') ?? 'sandbox';
  if (provider !== 'sandbox')
    throw new ConfigError(`IDENTITY_PROVIDER: "${provider}" is not a provider; use sandbox`);
  const kbaChoices = integer(env, 'KBA_CHOICES', 5);
  const kbaQuestions = integer(env, 'KBA_QUESTIONS', 5);
  const kbaPassPercent = integer(env, 'KBA_PASS_PERCENT', 80);
  if (kbaQuestions < 1 || kbaQuestions > 10) throw new ConfigError('KBA_QUESTIONS must be between 1 and 10');
  if (kbaChoices < 2 || kbaChoices > 6) throw new ConfigError('KBA_CHOICES must be between 2 and 6');
  if (kbaPassPercent > 100) throw new ConfigError('KBA_PASS_PERCENT must be at most 100');
  return {
    provider,
    // An allow-list: any environment that is not plainly development or test (staging, prod, a typo) refuses.
    sandboxRefusal:
      ['development', 'test'].includes(nodeEnv) || optional(env, 'ALLOW_SANDBOX_IDENTITY') === 'true'
        ? undefined
        : `IDENTITY_PROVIDER is the sandbox, whose test identities pass on purpose, and NODE_ENV is "${nodeEnv}": ` +
          'it runs only under development or test, or with ALLOW_SANDBOX_IDENTITY=true',
    policy: {
      kbaQuestions,
      kbaChoices,
      kbaPassPercent,
      kbaTimeLimitMs: duration('KBA_TIME_LIMIT', optional(env, 'KBA_TIME_LIMIT') ?? '2m'),
      kbaRetakeNewPercent: Math.min(100, integer(env, 'KBA_RETAKE_NEW_PERCENT', 60)),
      attempts: Math.max(1, integer(env, 'IDENTITY_ATTEMPTS', 2)),
      retakeWindowMs: duration('IDENTITY_RETAKE_WINDOW', optional(env, 'IDENTITY_RETAKE_WINDOW') ?? '24h'),
      lockoutMs: duration('IDENTITY_LOCKOUT', optional(env, 'IDENTITY_LOCKOUT') ?? '24h'),
    },
  };
}

/** Production entry points refuse to fall back to embedded servers. */
export function requireExternalServices(config: Config): asserts config is Config & {
  databaseUrl: string;
  temporalAddress: string;
} {
  const missing = [
    config.databaseUrl ? null : 'DATABASE_URL',
    config.temporalAddress ? null : 'TEMPORAL_ADDRESS',
  ].filter(Boolean);
  if (missing.length) throw new ConfigError(`${missing.join(' and ')} must be set for this entry point`);
}
