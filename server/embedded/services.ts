import type { BackingLog, BackingProvider } from '../runtime';
import type { Config } from '../../src/config';
import {
  EMBEDDED_DATABASE,
  embeddedDatabaseUrl,
  embeddedPostgresRunning,
  postgresLayout,
  runningPort,
  startEmbeddedPostgres,
} from './embeddedPostgres';
import { startTemporalDevServer } from './temporalDevServer';
import { startEmbeddedJanus, type EmbeddedJanus } from './embeddedJanus';

export interface BackingServices {
  databaseUrl: string;
  temporalAddress: string;
  /** Set when the Temporal dev server was started here. */
  temporalUiUrl?: string;
  /** Set when Janus was started here (MEDIA_SERVER_URL unset and Janus installed). */
  media?: EmbeddedJanus;
  stop(): Promise<void>;
}

export interface BackingServiceOptions {
  /** The Temporal dev server keeps its history in DATA_DIR; tests use an in-memory one. */
  persistentTemporal: boolean;
  log: BackingLog;
}

/** DATABASE_URL and TEMPORAL_ADDRESS when set; otherwise embedded servers under DATA_DIR, started together. */
export async function provideBackingServices(
  config: Config,
  opts: BackingServiceOptions,
): Promise<BackingServices> {
  const [postgres, temporal, media] = await Promise.allSettled([
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
    config.media.serverUrl
      ? Promise.resolve(undefined)
      : startEmbeddedJanus({ dataDir: config.dataDir, media: config.media, log: opts.log }),
  ]);
  const stopAll = async () => {
    if (media.status === 'fulfilled') await media.value?.stop();
    if (temporal.status === 'fulfilled') await temporal.value?.stop();
    if (postgres.status === 'fulfilled') await postgres.value?.stop();
  };
  if (postgres.status === 'rejected' || temporal.status === 'rejected' || media.status === 'rejected') {
    await stopAll();
    const failed = [postgres, temporal, media].find((started) => started.status === 'rejected');
    throw (failed as PromiseRejectedResult).reason;
  }
  return {
    databaseUrl: config.databaseUrl ?? postgres.value!.databaseUrl,
    temporalAddress: config.temporalAddress ?? temporal.value!.address,
    temporalUiUrl: temporal.value?.uiUrl,
    media: media.value,
    stop: stopAll,
  };
}

/**
 * The database for one-off tools (admin CLI, migrations): DATABASE_URL, else the embedded server of a
 * running `npm start` with the same DATA_DIR, else that embedded server started just for this call.
 */
export async function provideDatabaseForTool(
  config: Config,
  log: BackingLog,
): Promise<{ databaseUrl: string; stop(): Promise<void> }> {
  if (config.databaseUrl) return { databaseUrl: config.databaseUrl, stop: async () => undefined };
  // A running `npm start` with the same DATA_DIR, whatever port it was given; never a server that merely
  // answers on the configured port, which may be another DATA_DIR's.
  const port = runningPort(postgresLayout(config.dataDir));
  if (port !== undefined && (await embeddedPostgresRunning(port))) {
    return { databaseUrl: embeddedDatabaseUrl(port), stop: async () => undefined };
  }
  return startEmbeddedPostgres({
    dataDir: config.dataDir,
    port: config.embeddedPostgresPort,
    database: EMBEDDED_DATABASE,
    log,
  });
}

/** The configuration with the embedded media server's address and secrets, when one was started here. */
export function withEmbeddedMedia(config: Config, media: EmbeddedJanus | undefined): Config {
  if (!media) return config;
  const { serverUrl, adminKey, eventsSecret } = media;
  return { ...config, media: { ...config.media, serverUrl, adminKey, eventsSecret } };
}

/** `npm start`'s backing: embedded PostgreSQL, Temporal and Janus for whatever the configuration leaves unset. */
export function embeddedBacking({ persistentTemporal }: { persistentTemporal: boolean }): BackingProvider {
  return async (config, log) => {
    const services = await provideBackingServices(config, { persistentTemporal, log });
    return { ...services, config: withEmbeddedMedia(config, services.media) };
  };
}
