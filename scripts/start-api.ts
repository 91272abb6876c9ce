import { loadConfig, requireExternalServices } from '../src/config';
import { createLogger } from '../src/logger';
import { startRuntime } from '../server/runtime';
import { createApp } from '../src/http/app';
import { runMain, stopOnSignals } from '../src/process';

/** Production API process: external PostgreSQL and Temporal only. */
async function main() {
  process.env.NODE_ENV ??= 'production';
  const config = loadConfig();
  requireExternalServices(config);
  const logger = createLogger(config.logLevel);
  const runtime = await startRuntime(config, { api: createApp, logger });
  logger.info({ url: runtime.apiUrl }, 'API listening');
  stopOnSignals(logger, runtime.stop);
}

runMain(main);
