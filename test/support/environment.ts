import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { loadConfig, type Config } from '../../src/config';
import { createLogger } from '../../src/logger';
import {
  provideBackingServices,
  withEmbeddedMedia,
  type BackingServices,
} from '../../server/embedded/services';
import { startRuntime, type Runtime } from '../../server/runtime';
import { startWorker, workflowsPath } from '../../worker/createWorker';
import { createApp } from '../../src/http/app';
import { freePort } from './freePort';
import { TestSmtpServer } from './smtpServer';

export interface TestEnvironment {
  /** The environment a spawned CLI or server needs to reach the same PostgreSQL and Temporal. */
  processEnv: NodeJS.ProcessEnv;
  config: Config;
  services: BackingServices;
  runtime: Runtime;
  apiUrl: string;
  workflowBundle: WorkflowBundleWithSourceMap;
  dataDir: string;
  /** Receives every e-mail the worker sends (SMTP_URL points here). */
  smtp: TestSmtpServer;
}

let current: TestEnvironment | undefined;

export function testEnvironment(): TestEnvironment {
  if (!current) throw new Error('the test environment is started by test/hooks.ts');
  return current;
}

function quietBundlerLogger(log: (line: string) => void) {
  const silent = () => undefined;
  return { log: silent, trace: silent, debug: silent, info: silent, warn: log, error: log };
}

/** What the tests' Prometheus would send to read /metrics. */
export const TEST_METRICS_TOKEN = 'test-metrics-token';

/** Settings every test process shares; short durations keep timer-driven tests fast. */
export function testSettings(dataDir: string): Record<string, string> {
  return {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PUBLIC_BASE_URL: 'https://notary.test',
    FRONT_URL: 'https://app.notary.test',
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
    METRICS_TOKEN: TEST_METRICS_TOKEN,
    WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s',
    // Receivers in tests listen on loopback; the refusal of such targets is tested with its own app.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    NOTARY_RETRY_INTERVAL: '1s',
    // Short enough for the tests of an unanswered offer and of a notary who does not start.
    NOTARY_OFFER_TIMEOUT: '5s',
    NOTARY_START_TIMEOUT: '8s',
    WEBHOOK_TIMEOUT: '2s',
    // The signing page's late-notary modal, soon enough for its browser test.
    NOTARY_LATE_AFTER: '3s',
    FINALIZE_ATTEMPTS: '2',
    // Every test calls from 127.0.0.1; the per-client limit has its own test with its own app.
    RATE_LIMIT_PER_CLIENT_PER_MINUTE: '1000000',
  };
}

/**
 * Real PostgreSQL and a real Temporal dev server, once per run: DATABASE_URL / TEMPORAL_ADDRESS when
 * set, else embedded servers in a fresh temporary DATA_DIR (so migrations run from an empty database).
 */
export async function startTestEnvironment(): Promise<TestEnvironment> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'notarization-test-'));
  // mkdtemp makes it private; embedded PostgreSQL runs as another user when the tests run as root.
  fs.chmodSync(dataDir, 0o755);
  const log = (line: string) => process.stderr.write(`[test env] ${line}\n`);
  const smtp = new TestSmtpServer();
  const smtpUrl = await smtp.start();
  const bundling = bundleWorkflowCode({ workflowsPath, logger: quietBundlerLogger(log) });
  let settings: Record<string, string> = {};
  let started:
    | { config: Config; services: BackingServices; runtime: Awaited<ReturnType<typeof startRuntime>> }
    | undefined;
  const workflowBundle = await bundling;
  // A free port can be taken by another process (a parallel run, or a backing service's own ephemeral
  // port) before our server binds it: start everything again on other ports.
  for (let attempt = 1; !started; attempt++) {
    settings = {
      ...testSettings(dataDir),
      SMTP_URL: smtpUrl,
      EMBEDDED_POSTGRES_PORT: String(await freePort()),
      TEMPORAL_DEV_PORT: String(await freePort()),
      TEMPORAL_UI_PORT: String(await freePort()),
      EMBEDDED_MEDIA_PORT: String(await freePort()),
    };
    // A port of its own rather than any: the media server posts its events to the API there.
    const baseConfig = loadConfig({
      ...process.env,
      ...settings,
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
    });
    let services: BackingServices | undefined;
    try {
      services = await provideBackingServices(baseConfig, { persistentTemporal: false, log });
      const config = withEmbeddedMedia(
        { ...baseConfig, databaseUrl: services.databaseUrl, temporalAddress: services.temporalAddress },
        services.media,
      );
      const runtime = await startRuntime(config, {
        api: createApp,
        worker: startWorker,
        workflowBundle,
        logger: createLogger(config.logLevel),
      });
      started = { config, services, runtime };
    } catch (err) {
      await services?.stop();
      if (attempt >= 3) throw err;
      log(
        `the test environment did not start (${(err as Error).message.split('\n')[0]}); retrying on other ports`,
      );
    }
  }
  const { config, services, runtime } = started;
  current = {
    processEnv: {
      ...process.env,
      ...settings,
      DATABASE_URL: services.databaseUrl,
      TEMPORAL_ADDRESS: services.temporalAddress,
    },
    config,
    services,
    runtime,
    apiUrl: runtime.apiUrl!,
    workflowBundle,
    dataDir,
    smtp,
  };
  return current;
}

export async function stopTestEnvironment(): Promise<void> {
  if (!current) return;
  const { runtime, services, dataDir, smtp } = current;
  current = undefined;
  await runtime.stop();
  await services.stop();
  await smtp.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
