import { loadConfig, requireExternalServices } from '../src/config';
import { createLogger } from '../src/logger';
import { loadSigningIdentity } from '../src/signing/identity';
import { startRuntime } from '../server/runtime';
import { runMain, stopOnSignals } from '../src/process';

/** Production worker process: external PostgreSQL and Temporal only. */
async function main() {
  process.env.NODE_ENV ??= 'production';
  const config = loadConfig();
  requireExternalServices(config);
  // The signing certificate is needed only at completions: check it now, not at the first one.
  loadSigningIdentity(config);
  const logger = createLogger(config.logLevel);
  const runtime = await startRuntime(config, { api: false, worker: true, embedded: false, logger });
  logger.info({ taskQueue: config.taskQueue }, 'worker running');
  stopOnSignals(logger, runtime.stop, runtime.worker?.done);
}

runMain(main);
