import fs from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { buildTemporalCli, findGo, findTemporalCli } from './temporalCli';
import type { BackingLog } from '../runtime';
import { keepRunning } from './keepRunning';
import { pidFileLauncher } from './pidFileLauncher';
import { searchAttributeCliArgs } from '../../src/temporal/searchAttributes';
import { dynamicConfigCliArgs } from '../../src/temporal/dynamicConfig';
import { SESSION_SEARCH_ATTRIBUTES } from '../../core/temporal/searchAttributes';

export interface DevServerOptions {
  dataDir: string;
  port: number;
  uiPort: number;
  /** In-memory when false: the tests want a fresh server, `npm start` a persistent one. */
  persistent: boolean;
  log: BackingLog;
}

export interface RunningDevServer {
  address: string;
  uiUrl: string;
  stop(): Promise<void>;
}

async function waitUntilServing(address: string, exited: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (exited()) throw new Error('the Temporal dev server exited during start-up');
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1_000 });
      try {
        await connection.workflowService.getSystemInfo({});
        return;
      } finally {
        await connection.close();
      }
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  throw new Error(`Temporal dev server at ${address} not ready after ${timeoutMs} ms: ${String(lastError)}`);
}

/**
 * The file's rollback journal and a sync at every commit cost the dev server more than twice the CPU a
 * workflow start takes in memory; a write-ahead log synced at its checkpoints costs what memory does, and
 * loses no committed transaction when a process dies (only, at worst, the last ones at a power cut).
 */
const FILE_PRAGMAS = ['--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal'];

/**
 * `temporal server start-dev` with its Web UI, from a CLI found on the machine or built once with Go; on
 * its file (`npm start`), launched again if it crashes.
 */
export async function startTemporalDevServer(opts: DevServerOptions): Promise<RunningDevServer> {
  let cli = findTemporalCli();
  const go = cli ? undefined : findGo();
  if (go) cli = await buildTemporalCli(go, opts.log);
  if (!cli) return startWithSdkDownload(opts);

  const dir = path.join(opts.dataDir, 'temporal');
  fs.mkdirSync(dir, { recursive: true });
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(opts.port),
    '--ui-port',
    String(opts.uiPort),
    '--log-level',
    'warn',
    ...(opts.persistent ? ['--db-filename', path.join(dir, 'temporal.sqlite'), ...FILE_PRAGMAS] : []),
    ...searchAttributeCliArgs(),
    ...dynamicConfigCliArgs(),
  ];
  const address = `127.0.0.1:${opts.port}`;
  const launcher = pidFileLauncher({
    command: cli,
    args,
    logFile: path.join(dir, 'server.log'),
    pidFile: path.join(dir, 'temporal.pid'),
    orphan: { command: 'temporal', what: 'The Temporal dev server' },
    ports: [
      { port: opts.port, setting: 'TEMPORAL_DEV_PORT' },
      { port: opts.uiPort, setting: 'TEMPORAL_UI_PORT' },
    ],
    serving: (exited) => waitUntilServing(address, exited, 60_000),
    haltWithinMs: 10_000,
  });
  const uiUrl = `http://localhost:${opts.uiPort}`;
  // Launched again in memory, a crashed server would come back empty: only one on its file is kept running.
  if (opts.persistent) {
    const kept = await keepRunning({ name: 'The Temporal dev server', ...launcher, log: opts.log });
    return { address, uiUrl, stop: kept.stop };
  }
  const server = await launcher.launch();
  return { address, uiUrl, stop: () => launcher.halt(server) };
}

/** Machines without Go but with internet: the SDK downloads and runs the same dev server. */
async function startWithSdkDownload(opts: DevServerOptions): Promise<RunningDevServer> {
  opts.log('No Temporal CLI and no Go toolchain: using the Temporal SDK download of the dev server');
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      ip: '127.0.0.1',
      port: opts.port,
      ui: true,
      uiPort: opts.uiPort,
      dbFilename: opts.persistent ? path.join(opts.dataDir, 'temporal', 'temporal.sqlite') : undefined,
      searchAttributes: SESSION_SEARCH_ATTRIBUTES,
      extraArgs: [...dynamicConfigCliArgs(), ...(opts.persistent ? FILE_PRAGMAS : [])],
    },
  });
  return { address: env.address, uiUrl: `http://localhost:${opts.uiPort}`, stop: () => env.teardown() };
}
