import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { Activities } from '../../activities';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { SESSION_SEARCH_ATTRIBUTES } from '../../core/temporal/searchAttributes';
import { testEnvironment } from './environment';
import { retrying } from './retrying';

const POM = path.join(__dirname, 'temporal-test-server', 'pom.xml');

/** The launcher `npm run setup:test` built (scripts/setup-time-skipping-server.sh). */
function launcherPath(): string {
  const version = /<version>(1\.[0-9.]+)<\/version>/.exec(fs.readFileSync(POM, 'utf8'))![1];
  const cache = process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache');
  const launcher = path.join(cache, 'notarization-service', `temporal-test-server-${version}`, 'launcher');
  if (!fs.existsSync(launcher))
    throw new Error(
      `${launcher} is missing: run npm run setup:test (it fetches the time-skipping test server)`,
    );
  return launcher;
}

/** The SDK's core gives the server's port 5 s; a JVM starting on a machine busy with the suite can take longer. */
const SERVER_STARTS = 3;

/** Temporal's time-skipping test server, with the session's search attributes: days pass in milliseconds. */
export async function startTimeSkipping(): Promise<TestWorkflowEnvironment> {
  const env = await retrying(
    SERVER_STARTS,
    () =>
      TestWorkflowEnvironment.createTimeSkipping({
        server: { executable: { type: 'existing-path', path: launcherPath() } },
      }),
    (err) => /did not start within/.test(err.message),
  );
  // The test server registers attributes but cannot list them, so register all of them at once.
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? 'default',
    searchAttributes: Object.fromEntries(
      SESSION_SEARCH_ATTRIBUTES.map((a) => [a.name, encodeSearchAttributeIndexedValueType(a.type)!]),
    ),
  });
  return env;
}

/**
 * Runs `body` with a worker whose activities are `activities` (mocks), on the run's workflow bundle,
 * like the samples' `sleep-for-days` tests.
 */
export async function withMockedWorker<T>(
  env: TestWorkflowEnvironment,
  taskQueue: string,
  activities: Partial<Activities>,
  body: () => Promise<T>,
): Promise<T> {
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: testEnvironment().workflowBundle,
    activities,
  });
  return worker.runUntil(body);
}
