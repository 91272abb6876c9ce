import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { startRuntime } from '../server/runtime';
import { embeddedBacking } from '../server/embedded/services';
import { createApp } from '../src/http/app';
import { startWorker } from '../worker/createWorker';
import { runMain, stopOnSignals } from '../src/process';
import { anyPort } from '../server/embedded/ports';

/** `npm start`: the whole service in one process, on embedded PostgreSQL and Temporal unless configured. */
async function main() {
  process.env.NODE_ENV ??= 'development';
  let config = loadConfig();
  // The signing links' base and the embedded Janus's events URL derive from PORT before the API listens:
  // PORT=0 takes its port now, so they name the one the API gets.
  if (config.port === 0) config = loadConfig({ ...process.env, PORT: String(await anyPort(config.host)) });
  const logger = createLogger(config.logLevel);
  const runtime = await startRuntime(config, {
    api: createApp,
    worker: startWorker,
    backing: embeddedBacking({ persistentTemporal: true }),
  });
  stopOnSignals(logger, runtime.stop, runtime.worker?.done);
  const lines = [
    '',
    `  API          ${runtime.apiUrl}/api/integrationsv2`,
    `  Docs         ${runtime.apiUrl}/docs`,
    `  Temporal UI  ${runtime.temporalUiUrl ?? `(external Temporal at ${config.temporalAddress})`}`,
    `  Data         ${config.databaseUrl ? 'DATABASE_URL' : config.dataDir}`,
    '',
    '  Create an account:  npm run -s admin -- create-account --name "Acme Title"',
    '  Quick start:        README.md, "Quick start: from an account to a signed PDF"',
    '  Stop:               Ctrl-C',
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

runMain(main);
