import { recordRunningApi } from './runningApi';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { Sequelize } from 'sequelize';
import type { WorkflowBundleOption } from '@temporalio/worker';
import type { Config } from '../src/config';
import { createLogger, type Logger } from '../src/logger';
import { createDatabase } from '../src/db/database';
import { migrateExclusively } from '../src/db/migrator';
import { exclusively } from '../src/db/exclusively';
import { assertNamespace, connectTemporal, type TemporalHandle } from '../src/temporal/client';
import { databaseSetupError, portTaken } from '../src/setupErrors';
import { ensureSearchAttributes } from '../src/temporal/searchAttributes';
import { ensureSchedules } from '../src/temporal/schedules';
import { resolveJwtSecret, TokenService } from '../src/auth/tokens';
import type { App, createApp } from '../src/http/app';
import type { RunningWorker, startWorker } from '../worker/createWorker';

export interface RuntimeOptions {
  /**
   * What the process runs, handed in by its entry point: this module imports neither, so a worker does not
   * hold the HTTP app's code (Koa, the routes, Swagger UI) nor an API the worker's.
   */
  api?: typeof createApp;
  worker?: typeof startWorker;
  /**
   * Where the database and Temporal come from when the configuration names none: `npm start` hands in its
   * embedded servers; the production entry points hand in nothing, so they never load them.
   */
  backing?: BackingProvider;
  workflowBundle?: WorkflowBundleOption;
  logger?: Logger;
}

/** Backing services a process starts for itself, and the configuration that reaches them. */
export interface ProvidedServices {
  config: Config;
  databaseUrl: string;
  temporalAddress: string;
  temporalUiUrl?: string;
  stop(): Promise<void>;
}
/** How the backing services write to the service's log: at info unless a level is given (a server's crash). */
export type BackingLog = (line: string, level?: 'warn' | 'error') => void;
export type BackingProvider = (config: Config, log: BackingLog) => Promise<ProvidedServices>;

export interface Runtime {
  config: Config;
  logger: Logger;
  sequelize: Sequelize;
  temporal: TemporalHandle;
  app?: App;
  server?: http.Server;
  apiUrl?: string;
  temporalUiUrl?: string;
  worker?: RunningWorker;
  stop(): Promise<void>;
}

// Any constant shared by every process: those starting together register search attributes one at a time.
const SEARCH_ATTRIBUTES_LOCK = 727_274_002;

function listen(server: http.Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? portTaken('The API', port, 'PORT') : err),
    );
    server.listen(port, host, () => resolve(server.address() as AddressInfo));
  });
}

/** Stops accepting connections, lets in-flight requests finish within the grace period, then cuts the rest. */
function closeServer(server: http.Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** The API on its port, with its metrics and token service; its teardown pushed onto `stack`. */
async function startApi(
  runtime: Runtime,
  createApi: NonNullable<RuntimeOptions['api']>,
  stack: Array<() => Promise<void>>,
): Promise<void> {
  const { config, logger, sequelize, temporal } = runtime;
  const metrics = new Registry();
  collectDefaultMetrics({ register: metrics });
  const tokens = new TokenService(
    sequelize,
    resolveJwtSecret(config),
    config.accessTokenTtlSeconds,
    config.refreshTokenTtlSeconds,
    config.maxLiveRefreshTokensPerKey,
  );
  const app = createApi({ config, logger, sequelize, temporal, metrics, tokens });
  runtime.app = app;
  stack.push(() => app.close());
  const server = http.createServer(app.koa.callback());
  // Uploads of several 10 MB documents over slow links need more than Node's 5-minute default.
  server.requestTimeout = 10 * 60_000;
  server.headersTimeout = 60_000;
  const address = await listen(server, config.port, config.host);
  runtime.server = server;
  runtime.apiUrl = `http://localhost:${address.port}`;
  stack.push(() => closeServer(server, config.shutdownGraceMs));
  const forget = recordRunningApi(config.dataDir, config.frontUrl);
  stack.push(async () => forget());
}

/**
 * Brings up what one process runs (API, worker or both) on top of its backing services, and tears it
 * down in reverse: HTTP, worker, Temporal client, database pool, embedded servers.
 */
export async function startRuntime(given: Config, opts: RuntimeOptions): Promise<Runtime> {
  let config = given;
  const logger = opts.logger ?? createLogger(config.logLevel);
  const say: BackingLog = (line, level) => logger[level ?? 'info'](line);
  const stack: Array<() => Promise<void>> = [];
  const stop = async () => {
    while (stack.length) {
      try {
        await stack.pop()!();
      } catch (err) {
        logger.error({ err }, 'error during shutdown');
      }
    }
  };
  try {
    let services: Pick<ProvidedServices, 'databaseUrl' | 'temporalAddress' | 'temporalUiUrl'>;
    if (opts.backing) {
      const backing = await opts.backing(config, say);
      stack.push(() => backing.stop());
      services = backing;
      config = backing.config;
    } else {
      services = { databaseUrl: config.databaseUrl!, temporalAddress: config.temporalAddress! };
    }

    const sequelize = createDatabase(services.databaseUrl);
    stack.push(() => sequelize.close());
    const applied = await migrateExclusively(sequelize).catch((err: unknown) => {
      throw databaseSetupError(err, services.databaseUrl) ?? err;
    });
    if (applied.length) logger.info({ migrations: applied }, 'migrations applied');

    const temporal = await connectTemporal(services.temporalAddress, config.temporalNamespace);
    stack.push(() => temporal.connection.close());
    await assertNamespace(temporal, services.temporalAddress, config.temporalNamespace);
    await exclusively(sequelize, SEARCH_ATTRIBUTES_LOCK, () =>
      ensureSearchAttributes(temporal.connection, config.temporalNamespace),
    );

    const runtime: Runtime = {
      config,
      logger,
      sequelize,
      temporal,
      temporalUiUrl: services.temporalUiUrl,
      stop,
    };

    if (opts.worker) {
      runtime.worker = await opts.worker({
        config,
        logger,
        sequelize,
        temporalAddress: services.temporalAddress,
        workflowBundle: opts.workflowBundle,
      });
      stack.push(() => runtime.worker!.shutdown());
      await ensureSchedules(temporal.client, config);
    }

    if (opts.api) await startApi(runtime, opts.api, stack);
    return runtime;
  } catch (err) {
    await stop();
    throw err;
  }
}
