import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { createApp } from '../../src/http/app';
import { Sequelize } from 'sequelize';
import { createLogger } from '../../src/logger';
import { TokenService } from '../../src/auth/tokens';
import { testEnvironment } from '../support/environment';
import { createTestAccount } from '../support/accounts';

/** A second API on the same services, in development or production mode, optionally with a closed pool. */
async function api(isDevelopment: boolean, closedPool = false) {
  const env = testEnvironment();
  let sequelize = env.runtime.sequelize;
  if (closedPool) {
    // Not createDatabase(): that would re-bind the process-wide models to this pool.
    sequelize = new Sequelize(env.config.databaseUrl!, { logging: false });
    await sequelize.close();
  }
  const tokens = new TokenService(sequelize, new TextEncoder().encode('x'.repeat(32)), 900, 3600);
  const app = createApp({
    config: { ...env.config, isDevelopment, nodeEnv: isDevelopment ? 'development' : 'production' },
    logger: createLogger('silent'),
    sequelize,
    temporal: env.runtime.temporal,
    metrics: new Registry(),
    tokens,
  });
  const server = http.createServer(app.koa.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

describe('unexpected errors', () => {
  for (const isDevelopment of [false, true]) {
    it(`are a 500 in the spec shape, ${isDevelopment ? 'with' : 'without'} internal_response in ${isDevelopment ? 'development' : 'production'}`, async () => {
      const account = await createTestAccount();
      const server = await api(isDevelopment);
      const sequelize = testEnvironment().runtime.sequelize;
      // A real database failure mid-request: the key lookup hits a table that is not there.
      await sequelize.query('ALTER TABLE api_keys RENAME TO api_keys_unavailable');
      try {
        const res = await fetch(`${server.url}/api/integrationsv2/auth/refresh`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ api_key: account.api_key }),
        });
        const body = (await res.json()) as Record<string, string>;
        assert.equal(res.status, 500);
        assert.equal(body.response, 'Fail');
        assert.equal(body.response_message, 'Internal server error');
        assert.ok(res.headers.get('x-request-id'));
        if (isDevelopment) assert.match(body.internal_response, /Error/);
        else assert.equal(body.internal_response, undefined);
        if (!isDevelopment) assert.doesNotMatch(JSON.stringify(body), /\.(ts|js):\d+/);
      } finally {
        await sequelize.query('ALTER TABLE api_keys_unavailable RENAME TO api_keys');
        server.close();
      }
    });
  }

  it('/readyz is a 503 when the database is unreachable', async () => {
    const server = await api(false, true);
    try {
      const res = await fetch(`${server.url}/readyz`);
      assert.equal(res.status, 503);
      assert.deepEqual(await res.json(), {
        status: 'unavailable',
        checks: { database: 'unreachable', temporal: 'ok' },
      });
    } finally {
      server.close();
    }
  });
});
