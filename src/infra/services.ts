import type { Config } from '../config';
import {
  EMBEDDED_DATABASE,
  embeddedDatabaseUrl,
  embeddedPostgresRunning,
  postgresLayout,
  runningPort,
  startEmbeddedPostgres,
} from './embeddedPostgres';
import { startTemporalDevServer } from './temporalDevServer';

export interface BackingServices {
  databaseUrl: string;
  temporalAddress: string;
  /** Set when the Temporal dev server was started here. */
  temporalUiUrl?: string;
  stop(): Promise<void>;
}

export interface BackingServiceOptions {
  /** The Temporal dev server keeps its history in DATA_DIR; tests use an in-memory one. */
  persistentTemporal: boolean;
  log: (line: string) => void;
}

/** DATABASE_URL and TEMPORAL_ADDRESS when set; otherwise embedded servers under DATA_DIR, started together. */
export async function provideBackingServices(
  config: Config,
  opts: BackingServiceOptions,
): Promise<BackingServices> {
  const [postgres, temporal] = await Promise.allSettled([
    config.databaseUrl
      ? Promise.resolve(undefined)
      : startEmbeddedPostgres({
          dataDir: config.dataDir,
          port: config.embeddedPostgresPort,
          database: EMBEDDED_DATABASE,
          log: opts.log,
        }),
    config.temporalAddress
      ? Promise.resolve(undefined)
      : startTemporalDevServer({
          dataDir: config.dataDir,
          port: config.temporalDevPort,
          uiPort: config.temporalUiPort,
          persistent: opts.persistentTemporal,
          log: opts.log,
        }),
  ]);
  const stopAll = async () => {
    if (temporal.status === 'fulfilled') await temporal.value?.stop();
    if (postgres.status === 'fulfilled') await postgres.value?.stop();
  };
  if (postgres.status === 'rejected' || temporal.status === 'rejected') {
    await stopAll();
    throw postgres.status === 'rejected' ? postgres.reason : (temporal as PromiseRejectedResult).reason;
  }
  return {
    databaseUrl: config.databaseUrl ?? postgres.value!.databaseUrl,
    temporalAddress: config.temporalAddress ?? temporal.value!.address,
    temporalUiUrl: temporal.value?.uiUrl,
    stop: stopAll,
  };
}

/**
 * The database for one-off tools (admin CLI, migrations): DATABASE_URL, else the embedded server of a
 * running `npm start` with the same DATA_DIR, else that embedded server started just for this call.
 */
export async function provideDatabaseForTool(
  config: Config,
  log: (line: string) => void,
): Promise<{ databaseUrl: string; stop(): Promise<void> }> {
  if (config.databaseUrl) return { databaseUrl: config.databaseUrl, stop: async () => undefined };
  // A running `npm start` with the same DATA_DIR, whatever port it was given.
  const port = runningPort(postgresLayout(config.dataDir)) ?? config.embeddedPostgresPort;
  if (await embeddedPostgresRunning(port)) {
    return { databaseUrl: embeddedDatabaseUrl(port), stop: async () => undefined };
  }
  return startEmbeddedPostgres({
    dataDir: config.dataDir,
    port: config.embeddedPostgresPort,
    database: EMBEDDED_DATABASE,
    log,
  });
}
