import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { scratchDirectory } from './scratchDirectory';
import { startEmbeddedPostgres, type RunningPostgres } from '../server/embedded/embeddedPostgres';
import { startTemporalDevServer, type RunningDevServer } from '../server/embedded/temporalDevServer';
import { loadConfig } from '../src/config';
import { loadDigitalId } from '../src/notarizedPdf/digitalId';
import { productionNodeArgs } from '../src/process';
import { freePort } from '../test/support/freePort';

const ROOT = path.join(__dirname, '..');

export interface ClusterPorts {
  api: number;
  postgres: number;
  temporal: number;
  temporalUi: number;
}

/**
 * An API or worker process run from its production entry point (`dist/scripts/…`) under a supervisor
 * that restarts it when it exits on its own, as `restart: unless-stopped` does in docker-compose.
 */
export class SupervisedProcess {
  private child?: ChildProcess;
  private stopping = false;
  /** Exits the supervisor did not ask for (the process gave up, e.g. on a lost connection). */
  unexpectedExits = 0;

  constructor(
    private readonly script: string,
    private readonly env: () => NodeJS.ProcessEnv,
    private readonly logFile: string,
  ) {}

  /** The running process's id, for measurements (RSS). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): void {
    this.stopping = false;
    const fd = fs.openSync(this.logFile, 'a');
    const child = spawn(
      process.execPath,
      [...productionNodeArgs(this.script), path.join(ROOT, 'dist', 'scripts', this.script)],
      {
        env: this.env(),
        stdio: ['ignore', fd, fd],
      },
    );
    fs.closeSync(fd);
    this.child = child;
    child.once('exit', () => {
      if (this.stopping || this.child !== child) return;
      this.unexpectedExits++;
      setTimeout(() => this.start(), 1_000);
    });
  }

  /** SIGKILL, as the kernel's OOM killer or a lost machine would: no shutdown hooks run. */
  async kill(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
}

/**
 * PostgreSQL, the Temporal server, one API and one worker, each its own process that the fault test
 * stops, kills and starts again. PostgreSQL and Temporal keep their data on disk across restarts.
 */
export class Cluster {
  private postgres?: RunningPostgres;
  private temporal?: RunningDevServer;
  readonly api: SupervisedProcess;
  readonly worker: SupervisedProcess;
  databaseUrl = '';
  temporalAddress = '';

  constructor(
    private readonly dataDir: string,
    private readonly ports: ClusterPorts,
    private readonly settings: Record<string, string>,
    private readonly log: (line: string) => void,
  ) {
    const env = () => ({
      ...process.env,
      ...this.settings,
      PORT: String(this.ports.api),
      DATABASE_URL: this.databaseUrl,
      TEMPORAL_ADDRESS: this.temporalAddress,
    });
    this.api = new SupervisedProcess('start-api.js', env, path.join(dataDir, 'api.log'));
    this.worker = new SupervisedProcess('start-worker.js', env, path.join(dataDir, 'worker.log'));
  }

  get apiUrl(): string {
    return `http://127.0.0.1:${this.ports.api}`;
  }

  /** More settings for the processes started from now on (a media server's, known once it runs). */
  configure(more: Record<string, string>): void {
    Object.assign(this.settings, more);
  }

  async startPostgres(): Promise<void> {
    this.postgres = await startEmbeddedPostgres({
      dataDir: this.dataDir,
      port: this.ports.postgres,
      database: 'notarization',
      log: this.log,
    });
    this.databaseUrl = this.postgres.databaseUrl;
  }

  async stopPostgres(): Promise<void> {
    await this.postgres?.stop();
    this.postgres = undefined;
  }

  async startTemporal(): Promise<void> {
    this.temporal = await startTemporalDevServer({
      dataDir: this.dataDir,
      port: this.ports.temporal,
      uiPort: this.ports.temporalUi,
      persistent: true,
      log: this.log,
    });
    this.temporalAddress = this.temporal.address;
  }

  async stopTemporal(): Promise<void> {
    await this.temporal?.stop();
    this.temporal = undefined;
  }

  async startAll(): Promise<void> {
    await Promise.all([this.startPostgres(), this.startTemporal()]);
    this.api.start();
    this.worker.start();
    try {
      await this.waitReady(120_000);
    } catch (err) {
      // The API and worker have no exit hook of their own: a cluster that never came up is stopped here.
      await this.stopAll();
      throw err;
    }
  }

  async waitReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        if ((await fetch(`${this.apiUrl}/readyz`)).ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`the API was not ready within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  async stopAll(): Promise<void> {
    await Promise.allSettled([this.api.stop(), this.worker.stop()]);
    await Promise.allSettled([this.stopTemporal(), this.stopPostgres()]);
  }
}

/**
 * A new cluster in a scratch directory of its own, configured as production with `settings` added:
 * free ports, a random JWT secret, and a development signing certificate passed as an operator would.
 */
export async function productionCluster(
  name: string,
  settings: Record<string, string>,
  log: (line: string) => void,
): Promise<{ cluster: Cluster; dataDir: string }> {
  const dataDir = scratchDirectory(name);
  const ports = {
    api: await freePort(),
    postgres: await freePort(),
    temporal: await freePort(),
    temporalUi: await freePort(),
  };
  const identity = loadDigitalId(loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'development' }));
  const all = {
    NODE_ENV: 'production',
    // No identity vendor is configured here: the sandbox stands in, as in a staging deployment.
    ALLOW_SANDBOX_IDENTITY: 'true',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    JWT_SECRET: crypto.randomBytes(32).toString('hex'),
    SIGNING_P12_PATH: path.join(dataDir, 'signing', 'signer.p12'),
    SIGNING_P12_PASSPHRASE: identity.passphrase,
    ...settings,
  };
  return { cluster: new Cluster(dataDir, ports, all, log), dataDir };
}
