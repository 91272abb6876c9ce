import { startSecondApp } from '../support/secondApp';
import assert from 'node:assert/strict';
import { Sequelize } from 'sequelize';
import { testEnvironment } from '../support/environment';
import { createTestAccount } from '../support/accounts';
import { freePort } from '../support/freePort';
import { contractViolation } from '../support/contract';
import { UNAVAILABLE_MESSAGE } from '../../src/domain/errors';
import crypto from 'node:crypto';

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
        if (isDevelopment) assert.match(body.internal_response, /relation "api_keys" does not exist/);
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

  it('every route answers 503 with Retry-After, never 500, when PostgreSQL is unreachable, as its documentation says', async () => {
    const account = await createTestAccount();
    // Nothing listens on this port: every query fails to connect, as during a database restart.
    const unreachable = new Sequelize(`postgres://nobody@127.0.0.1:${await freePort()}/none`, {
      logging: false,
      pool: { acquire: 2_000 },
    });
    const server = await startSecondApp({}, { sequelize: unreachable });
    // Path parameters of the shape each route checks before it queries, so the query is what fails.
    const shaped: Record<string, string> = { token: 'A'.repeat(43) };
    const keyFor: Record<string, string | undefined> = {
      api: account.api_key,
      session_actor: account.api_key,
      vendor: account.vendor_api_key,
    };
    const departures: string[] = [];
    try {
      for (const def of testEnvironment().runtime.app!.routes.definitions) {
        const path = def.path.replace(/\{(\w+)\}/g, (_, name: string) => shaped[name] ?? crypto.randomUUID());
        const key = keyFor[def.auth];
        const res = await fetch(`${server.url}${path}`, {
          method: def.method.toUpperCase(),
          headers: {
            accept: 'application/json',
            'content-type': 'application/json',
            ...(key ? { authorization: `Bearer ${key}` } : {}),
          },
          body: def.method === 'post' ? '{}' : undefined,
        });
        const type = res.headers.get('content-type');
        const body = type?.includes('json') ? await res.json() : await res.text();
        const answer = `${def.method} ${def.path}: ${res.status} ${JSON.stringify(body).slice(0, 100)}`;
        const departure = contractViolation(def.method, new URL(res.url), res.status, type, body);
        if (departure) departures.push(departure);
        // A key is looked up in PostgreSQL before anything else: each of these routes must find it unreachable.
        if ((key && !def.dependencyFree && res.status !== 503) || (res.status >= 500 && res.status !== 503))
          departures.push(answer);
        if (res.status === 503 && def.operationId !== 'readyz') {
          assert.equal(res.headers.get('retry-after'), '5', answer);
          assert.deepEqual(body, { response: 'Fail', response_message: UNAVAILABLE_MESSAGE }, answer);
        }
      }
    } finally {
      await server.close();
      await unreachable.close();
    }
    assert.deepEqual(departures, []);
  });
});
