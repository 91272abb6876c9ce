import fs from 'node:fs';
import { loadConfig, requireExternalServices } from '../src/config';
import { createLogger } from '../src/logger';
import { loadDigitalId } from '../src/notarizedPdf/digitalId';
import { startRuntime } from '../server/runtime';
import { startWorker } from '../worker/createWorker';
import { runMain, stopOnSignals } from '../src/process';

/** Production worker process (sessions, media or both: WORKER_ROLES): external PostgreSQL and Temporal only. */
async function main() {
  process.env.NODE_ENV ??= 'production';
  const config = loadConfig();
  requireExternalServices(config);
  // The signing certificate is needed only at completions: check it now, not at the first one.
  if (config.workerRoles.includes('sessions')) loadDigitalId(config);
  const logger = createLogger(config.logLevel);
  const runtime = await startRuntime(config, { worker: startWorker, logger });
  logger.info({ taskQueue: config.taskQueue, roles: config.workerRoles }, 'worker running');
  keepHealthFile(process.env.WORKER_HEALTH_FILE, () =>
    Boolean(runtime.worker?.workers.every((w) => w.getState() === 'RUNNING')),
  );
  stopOnSignals(logger, runtime.stop, runtime.worker?.done);
}

/** A container's healthcheck reads the file's age: fresh while the worker polls its task queue. */
function keepHealthFile(file: string | undefined, running: () => boolean): void {
  if (!file) return;
  const touch = () => {
    if (running()) fs.writeFileSync(file, new Date().toISOString());
  };
  touch();
  setInterval(touch, 10_000).unref();
}

runMain(main);
