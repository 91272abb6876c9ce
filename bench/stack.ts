import { type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { Sequelize } from 'sequelize';
import { loadConfig, type Config } from '../src/config';
import { PRODUCTION_PROCESS_ENV } from '../src/process';
import { provideBackingServices, type BackingServices } from '../server/embedded/services';
import { mediaSettings } from '../server/embedded/embeddedJanus';
import {
  EMBEDDED_DATABASE,
  embeddedSqlEndpoint,
  startEmbeddedPostgres,
} from '../server/embedded/embeddedPostgres';
import { ensureTemporalServer, startRealTemporal } from '../production/temporalServer';
import { createDatabase } from '../src/db/database';
import { migrateExclusively } from '../src/db/migrator';
import { freePort } from '../test/support/freePort';
import { retrying } from '../test/support/retrying';
import { say } from './report';
import { cpuSeconds, cpuOfTree, quietFor, startProcess, node, ready } from './processes';

/**
 * Whether the stacks' workers, PostgreSQL and Temporal servers together used under 10 % of a core over
 * the next `seconds` (idle, they use about 1 % each): what a load left behind (a worker's backlog,
 * PostgreSQL's vacuum of its rows) is over, so the next measure is of its own work.
 */
export const stackQuietFor = (stacks: Stack[], seconds: number) =>
  quietFor(
    () =>
      stacks.reduce((sum, s) => {
        const { postgres, temporal } = s.serverCpu();
        return sum + cpuSeconds(s.worker.pid!) + cpuSeconds(s.mediaWorker.pid!) + postgres + temporal;
      }, 0),
    seconds,
    0.1,
  );

/**
 * BENCH_TEMPORAL=server: each stack's Temporal is the real server on the stack's PostgreSQL, as in production
 * (`npm run verify:production`'s), instead of the CLI's dev server with its store in a file, as `npm start`
 * runs it.
 */
export const REAL_TEMPORAL = process.env.BENCH_TEMPORAL === 'server';

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The stack's embedded PostgreSQL, and the real Temporal server on it. */
export async function realServices(config: Config): Promise<BackingServices> {
  const postgres = await startEmbeddedPostgres({
    dataDir: config.dataDir,
    port: config.embeddedPostgresPort,
    database: EMBEDDED_DATABASE,
    log: say,
  });
  try {
    const temporal = await startRealTemporal({
      tools: ensureTemporalServer(say),
      pg: embeddedSqlEndpoint(config.embeddedPostgresPort),
      dir: config.dataDir,
      namespace: config.temporalNamespace,
      log: say,
    });
    return {
      databaseUrl: postgres.databaseUrl,
      temporalAddress: temporal.address,
      async stop() {
        await temporal.stop();
        await postgres.stop();
      },
    };
  } catch (err) {
    await postgres.stop();
    throw err;
  }
}

/** One API, its worker, and the PostgreSQL and Temporal servers they alone use, under a data directory of its own. */
export interface Stack {
  apiUrl: string;
  api: ChildProcess;
  /** The sessions' worker; media work (the recordings) runs in `mediaWorker`, as in production. */
  worker: ChildProcess;
  mediaWorker: ChildProcess;
  sequelize: Sequelize;
  env: NodeJS.ProcessEnv;
  /** CPU seconds of this stack's PostgreSQL (its postmaster and backends) and Temporal server. */
  serverCpu(): { postgres: number; temporal: number };
  /** CPU seconds of this stack's media server (Janus). */
  mediaCpu(): number;
  /** Another API process of this stack, on a task queue no worker polls. */
  startUnpolledApi(queue: string, nodeArgs?: string[]): Promise<{ url: string; process: ChildProcess }>;
  stop(): Promise<void>;
}

export const SERVICE_START_ATTEMPTS = 3;

/**
 * A stack's PostgreSQL and Temporal on ports found free. A port is free when picked, not when the server
 * binds it: one full run stopped when another socket took PostgreSQL's port in between ("Address already
 * in use"), so a failed start is tried again on other ports.
 */
export function startServicesOnFreePorts(settings: Record<string, string>, dataDir: string) {
  return retrying(
    SERVICE_START_ATTEMPTS,
    async () => {
      const stackSettings = {
        ...settings,
        DATA_DIR: dataDir,
        EMBEDDED_POSTGRES_PORT: String(await freePort()),
        TEMPORAL_DEV_PORT: String(await freePort()),
        TEMPORAL_UI_PORT: String(await freePort()),
        EMBEDDED_MEDIA_PORT: String(await freePort()),
        // The stack's first API: the media server posts its events there.
        PORT: String(await freePort()),
      };
      const config = loadConfig({ ...process.env, ...stackSettings });
      const services = await (REAL_TEMPORAL
        ? realServices(config)
        : provideBackingServices(config, { persistentTemporal: true, log: say }));
      return { stackSettings, config, services };
    },
    () => true,
    (err) => say(`services did not start (${err.message.split('\n')[0]}); again on other ports`),
  );
}

/**
 * Starts a stack from the bench's settings; each has its own ports. Its processes are stopped with
 * `stop`, or killed when the bench exits.
 */
export async function startStack(settings: Record<string, string>, dataDir: string): Promise<Stack> {
  // Passable by PostgreSQL's own user when the bench runs as root, so its cluster is kept here too.
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o755 });
  const { stackSettings, config, services } = await startServicesOnFreePorts(settings, dataDir);
  const env = {
    ...process.env,
    ...PRODUCTION_PROCESS_ENV,
    ...stackSettings,
    DATABASE_URL: services.databaseUrl,
    TEMPORAL_ADDRESS: services.temporalAddress,
    ...mediaSettings(services.media),
  };
  const sequelize = createDatabase(services.databaseUrl);
  const children: ChildProcess[] = [];
  const stop = async () => {
    // A graceful stop first: a profiled process writes its profile as it exits.
    children.forEach((c) => c.kill('SIGTERM'));
    await new Promise((r) => setTimeout(r, 3_000));
    children.forEach((c) => c.kill('SIGKILL'));
    await sequelize.close();
    await services.stop();
  };
  const startApi = async (overrides: Record<string, string> = {}, nodeArgs: string[] = [], port?: number) => {
    port ??= await freePort();
    const [exe, ...entry] = node('start-api.js');
    const child = startProcess([exe, ...nodeArgs, ...entry], { ...env, ...overrides, PORT: String(port) });
    children.push(child);
    const url = `http://127.0.0.1:${port}`;
    await ready(url);
    return { url, process: child };
  };
  try {
    await migrateExclusively(sequelize);
    const worker = startProcess(node('start-worker.js'), { ...env, WORKER_ROLES: 'sessions' });
    const mediaWorker = startProcess(node('start-worker.js'), { ...env, WORKER_ROLES: 'media' });
    children.push(worker, mediaWorker);
    const api = await startApi({}, [], Number(stackSettings.PORT));
    const postgresServer = new RegExp(`/postgres -D .* -p ${config.embeddedPostgresPort} `);
    const temporalServer = REAL_TEMPORAL
      ? new RegExp(`/server --config-file ${escapeRegExp(dataDir)}/`)
      : new RegExp(`temporal(-cli)?\\S* server .*--port ${config.temporalDevPort} `);
    return {
      apiUrl: api.url,
      api: api.process,
      worker,
      mediaWorker,
      sequelize,
      env,
      serverCpu: () => ({ postgres: cpuOfTree(postgresServer), temporal: cpuOfTree(temporalServer) }),
      mediaCpu: () => cpuOfTree(new RegExp(`janus --configs-folder ${escapeRegExp(dataDir)}/`)),
      startUnpolledApi: (queue, nodeArgs) => startApi({ TEMPORAL_TASK_QUEUE: queue }, nodeArgs),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
