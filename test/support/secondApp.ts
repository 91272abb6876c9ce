import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import type { Sequelize } from 'sequelize';
import type { Config } from '../../src/config';
import { createApp } from '../../src/http/app';
import { createLogger, type Logger } from '../../src/logger';
import { TokenService } from '../../src/auth/tokens';
import { temporalHandle, type TemporalHandle } from '../../src/temporal/client';
import { testEnvironment } from './environment';
import { startWorker } from '../../worker/createWorker';
import { freePort } from './freePort';

export interface SecondApp {
  url: string;
  close(): Promise<void>;
}

/**
 * Another API on the same PostgreSQL and Temporal with some configuration changed (development mode,
 * a 1-second lifetime, private webhook targets refused…), over real HTTP.
 */
export async function startSecondApp(
  overrides: Partial<Config>,
  services: { sequelize?: Sequelize; temporal?: TemporalHandle; logger?: Logger } = {},
): Promise<SecondApp> {
  const env = testEnvironment();
  const database = services.sequelize ?? env.runtime.sequelize;
  const config = { ...env.config, ...overrides };
  const app = createApp({
    config,
    logger: services.logger ?? createLogger('silent'),
    sequelize: database,
    temporal: services.temporal ?? env.runtime.temporal,
    metrics: new Registry(),
    tokens: new TokenService(
      database,
      new TextEncoder().encode(config.jwtSecret!),
      config.accessTokenTtlSeconds,
      config.refreshTokenTtlSeconds,
      config.maxLiveRefreshTokensPerKey,
    ),
  });
  const server = http.createServer(app.koa.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
    },
  };
}

/** The spec's body of the 503 an unreachable PostgreSQL or Temporal answers. */
export const UNAVAILABLE_ANSWER = {
  response: 'Fail',
  response_message: 'The service is temporarily unavailable; retry the request',
};

/** Another API whose Temporal address is one where nothing listens: every call fails as a real outage would. */
export async function startAppWithTemporalDown(services: { sequelize?: Sequelize } = {}): Promise<SecondApp> {
  const temporal = temporalHandle(
    `127.0.0.1:${await freePort()}`,
    testEnvironment().config.temporalNamespace,
  );
  const app = await startSecondApp({}, { ...services, temporal });
  return {
    url: app.url,
    close: async () => {
      await app.close();
      await temporal.connection.close();
    },
  };
}

/**
 * A worker with some configuration changed, polling a task queue of its own, and an API that starts the
 * sessions on that queue; the rest of the suite's sessions never reach this worker.
 */
export async function startOwnQueue(queue: string, workerOverrides: Partial<Config>): Promise<SecondApp> {
  const env = testEnvironment();
  const worker = await startWorker({
    config: { ...env.config, ...workerOverrides, taskQueue: queue },
    logger: env.runtime.logger,
    sequelize: env.runtime.sequelize,
    temporalAddress: env.config.temporalAddress!,
    workflowBundle: env.workflowBundle,
  });
  const app = await startSecondApp({ taskQueue: queue }).catch(async (err: unknown) => {
    await worker.shutdown();
    throw err;
  });
  return {
    url: app.url,
    close: async () => {
      await app.close();
      await worker.shutdown();
    },
  };
}
