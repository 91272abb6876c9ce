import { startSecondApp } from '../support/secondApp';
import assert from 'node:assert/strict';
import { Sequelize } from 'sequelize';
import { testEnvironment } from '../support/environment';
import { createTestAccount } from '../support/accounts';
import { freePort } from '../support/freePort';

/** A second API in development or production mode, optionally on a closed pool. */
async function api(isDevelopment: boolean, closedPool = false) {
  let sequelize: Sequelize | undefined;
  if (closedPool) {
    // Not createDatabase(): that would re-bind the process-wide models to this pool.
    sequelize = new Sequelize(testEnvironment().config.databaseUrl!, { logging: false });
    await sequelize.close();
  }
  return startSecondApp(
    { isDevelopment, nodeEnv: isDevelopment ? 'development' : 'production' },
    { sequelize },
  );
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
        await server.close();
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
      await server.close();
    }
  });

  it('reads and writes answer 503 with Retry-After, never 500, when PostgreSQL is unreachable', async () => {
    const account = await createTestAccount();
    // Nothing listens on this port: every query fails to connect, as during a database restart.
    const unreachable = new Sequelize(`postgres://nobody@127.0.0.1:${await freePort()}/none`, {
      logging: false,
      pool: { acquire: 2_000 },
    });
    const server = await startSecondApp({}, { sequelize: unreachable });
    try {
      for (const [path, key, body] of [
        ['/api/integrationsv2/sessions', account.api_key, undefined],
        ['/api/integrationsv2/team_members', account.vendor_api_key, undefined],
        ['/api/integrationsv2/webhooks', account.api_key, { url: 'https://example.com/hook' }],
      ] as const) {
        const res = await fetch(`${server.url}${path}`, {
          method: body ? 'POST' : 'GET',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: body ? JSON.stringify(body) : undefined,
        });
        assert.equal(res.status, 503, `${path}: ${res.status} ${await res.clone().text()}`);
        assert.equal(res.headers.get('retry-after'), '5', path);
        assert.deepEqual(await res.json(), {
          response: 'Fail',
          response_message: 'The service is temporarily unavailable; retry the request',
        });
      }
    } finally {
      await server.close();
      await unreachable.close();
    }
  });
});
