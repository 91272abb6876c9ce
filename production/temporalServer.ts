import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { spawnServer, type ManagedChild } from '../server/embedded/childProcess';
import { TemporalPorts, temporalPorts } from './temporalPorts';
/**
 * The real Temporal server on PostgreSQL, as production runs it, built here from source: the server and
 * its SQL schema tool at the version the compose file pins, with the Go toolchain that version needs.
 */
export const TEMPORAL_SERVER_VERSION = 'v1.32.2';
const GO_TOOLCHAIN = 'go1.26.10';
const MODULE = 'go.temporal.io/server';
export interface TemporalServerTools {
  server: string;
  sql: string;
  /** `schema/postgresql/v12` of the same version: `temporal/versioned` and `visibility/versioned`. */
  schemaDir: string;
}
function cacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'notarization-service', `temporal-server-${TEMPORAL_SERVER_VERSION}`);
}
const goEnv = () => ({ ...process.env, GOTOOLCHAIN: GO_TOOLCHAIN, GOFLAGS: '-buildvcs=false' });
/** Builds the server and the SQL tool once into the cache (several minutes the first time). */
export function ensureTemporalServer(log: (line: string) => void): TemporalServerTools {
  const dir = cacheDir();
  const server = path.join(dir, 'server');
  const sql = path.join(dir, 'sql');
  if (!fs.existsSync(server) || !fs.existsSync(sql)) {
    log(
      `building the Temporal server ${TEMPORAL_SERVER_VERSION} and its SQL tool into ${dir} (go install; minutes the first time)`,
    );
    fs.mkdirSync(dir, { recursive: true });
    execFileSync(
      'go',
      [
        'install',
        `${MODULE}/cmd/server@${TEMPORAL_SERVER_VERSION}`,
        `${MODULE}/cmd/tools/sql@${TEMPORAL_SERVER_VERSION}`,
      ],
      { env: { ...goEnv(), GOBIN: dir }, stdio: ['ignore', 'inherit', 'inherit'] },
    );
  }
  const modCache = execFileSync('go', ['env', 'GOMODCACHE'], { env: goEnv() }).toString().trim();
  const schemaDir = path.join(
    modCache,
    `${MODULE}@${TEMPORAL_SERVER_VERSION}`,
    'schema',
    'postgresql',
    'v12',
  );
  return { server, sql, schemaDir };
}
export interface SqlEndpoint {
  host: string;
  port: number;
  user: string;
  password: string;
}
/** Creates the `temporal` and `temporal_visibility` databases and brings both schemas to the server's version. */
export function setupSchemas(tools: TemporalServerTools, pg: SqlEndpoint, log: (line: string) => void): void {
  const base = [
    '--plugin',
    'postgres12',
    '--ep',
    pg.host,
    '-p',
    String(pg.port),
    '-u',
    pg.user,
    '--pw',
    pg.password,
  ];
  for (const [db, schema] of [
    ['temporal', 'temporal'],
    ['temporal_visibility', 'visibility'],
  ]) {
    log(`schema: ${db}`);
    const run = (args: string[]) =>
      execFileSync(tools.sql, [...base, '--db', db, ...args], { stdio: 'pipe' });
    run(['create-database']);
    run(['setup-schema', '-v', '0.0']);
    run(['update-schema', '-d', path.join(tools.schemaDir, schema, 'versioned')]);
  }
}
/** The dynamic config docker-compose mounts into its Temporal server: this run uses the same file. */
export const DYNAMIC_CONFIG_FILE = path.join(
  __dirname,
  '..',
  'deploy',
  'temporal',
  'dynamicconfig',
  'production.yaml',
);
/** The server's configuration: PostgreSQL persistence and visibility, every service on loopback. */
export function writeServerConfig(dir: string, pg: SqlEndpoint, ports: TemporalPorts): string {
  const store = (db: string, conns: number) => `
      sql:
        pluginName: "postgres12"
        databaseName: "${db}"
        connectAddr: "${pg.host}:${pg.port}"
        connectProtocol: "tcp"
        user: "${pg.user}"
        password: "${pg.password}"
        maxConns: ${conns}
        maxIdleConns: ${conns}
        maxConnLifetime: "1h"`;
  const service = (grpc: number, membership: number, http?: number) => `
    rpc:
      grpcPort: ${grpc}
      membershipPort: ${membership}
      bindOnLocalHost: true${http ? `\n      httpPort: ${http}` : ''}`;
  const file = path.join(dir, 'temporal-server.yaml');
  fs.writeFileSync(
    file,
    `log:
  stdout: true
  level: warn
persistence:
  defaultStore: default
  visibilityStore: visibility
  numHistoryShards: 4
  datastores:
    default:${store('temporal', 20)}
    visibility:${store('temporal_visibility', 5)}
global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: "127.0.0.1"
  metrics:
    prometheus:
      framework: "tally"
      timerType: "histogram"
      listenAddress: "127.0.0.1:${ports.metrics}"
services:
  frontend:${service(ports.frontend, ports.frontendMembership, ports.frontendHttp)}
  history:${service(ports.history, ports.historyMembership)}
  matching:${service(ports.matching, ports.matchingMembership)}
  worker:${service(ports.worker, ports.workerMembership)}
clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: "active"
  currentClusterName: "active"
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: "frontend"
      rpcAddress: "127.0.0.1:${ports.frontend}"
dcRedirectionPolicy:
  policy: "noop"
dynamicConfigClient:
  filepath: "${DYNAMIC_CONFIG_FILE}"
  pollInterval: "60s"
`,
  );
  return file;
}
export function startTemporalServer(
  tools: TemporalServerTools,
  configFile: string,
  logFile: string,
): ManagedChild {
  return spawnServer(tools.server, ['--config-file', configFile, '--allow-no-auth', 'start'], logFile, {
    exitSignal: 'SIGTERM',
  });
}
/** The server's own version line, for the report. */
export function toolVersion(tools: TemporalServerTools): string {
  return execFileSync(tools.server, ['--version']).toString().trim();
}
/** Polls `check` every 250 ms until it answers true, failing after `timeoutMs`. */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
export interface RunningTemporalServer {
  address: string;
  stop(): Promise<void>;
}
/**
 * The real server on `pg`, as an operator brings one up: its schemas set up by its SQL tool, its
 * configuration and log under `dir`, and `namespace` registered and served before this returns.
 */
export async function startRealTemporal(opts: {
  tools: TemporalServerTools;
  pg: SqlEndpoint;
  dir: string;
  namespace: string;
  log: (line: string) => void;
}): Promise<RunningTemporalServer> {
  setupSchemas(opts.tools, opts.pg, opts.log);
  const ports = await temporalPorts();
  const server = startTemporalServer(
    opts.tools,
    writeServerConfig(opts.dir, opts.pg, ports),
    path.join(opts.dir, 'temporal.log'),
  );
  const address = `127.0.0.1:${ports.frontend}`;
  let connection: Connection | undefined;
  const stop = async () => {
    await connection?.close();
    await server.stop('SIGTERM', 20_000);
  };
  try {
    await waitUntil(
      'the Temporal frontend',
      async () => {
        connection ??= await Connection.connect({ address, connectTimeout: 2_000 });
        await connection.workflowService.getSystemInfo({});
        return true;
      },
      120_000,
    );
    await connection!.workflowService.registerNamespace({
      namespace: opts.namespace,
      workflowExecutionRetentionPeriod: msToTs('3 days'),
    });
    await waitUntil(
      `namespace ${opts.namespace}`,
      async () => Boolean(await connection!.workflowService.describeNamespace({ namespace: opts.namespace })),
      60_000,
    );
    return { address, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
