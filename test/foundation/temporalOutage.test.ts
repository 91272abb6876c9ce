import assert from 'node:assert/strict';
import net from 'node:net';
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { createDatabase } from '../../src/db/database';
import { startTemporalDevServer } from '../../server/embedded/temporalDevServer';
import { temporalHandle } from '../../src/temporal/client';
import { sessionBody, teamNotarySession } from '../support/sessions';
import { startAppWithTemporalDown, startSecondApp, UNAVAILABLE_ANSWER } from '../support/secondApp';
import { testEnvironment } from '../support/environment';
import { eventually, letTimePass } from '../support/eventually';
import { freePort } from '../support/freePort';

describe('a Temporal outage', function () {
  this.timeout(120_000);

  it('creates during it hold at most all but two database connections, and are refused at once after 5 s', async () => {
    const { account, notary, id } = await teamNotarySession();
    // An API with a database pool of its own, as a deployed one has, named so its connections can be told.
    const url = new URL(testEnvironment().config.databaseUrl!);
    url.searchParams.set('application_name', 'temporal-outage-test');
    const pool = createDatabase(url.toString());
    const app = await startAppWithTemporalDown({ sequelize: pool });
    const headers = { authorization: `Bearer ${account.api_key}`, 'content-type': 'application/json' };
    const create = async () => {
      const body = JSON.stringify(await sessionBody({ session_notary_email: notary.email }));
      const sent = performance.now();
      const res = await fetch(`${app.url}/api/integrationsv2/sessions`, { method: 'POST', headers, body });
      return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json(), sent };
    };
    try {
      const started = performance.now();
      // Twice the pool: each holds its transaction through its call until Temporal is known down (5 s).
      const creates = Array.from({ length: 20 }, create);
      const inTransactions = () =>
        testEnvironment()
          .runtime.sequelize.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE application_name = 'temporal-outage-test' AND xact_start IS NOT NULL`,
            { plain: true },
          )
          .then((row) => (row as { n: number }).n);
      await eventually(inTransactions, (n) => n >= 8, 'eight creates holding their transactions');

      const readSent = performance.now();
      const read = await fetch(`${app.url}/api/integrationsv2/sessions/${id}`, { headers });
      const readMs = performance.now() - readSent;
      assert.equal(read.status, 200, await read.clone().text());
      assert.ok(readMs < 1_000, `a read while creates held their transactions took ${readMs.toFixed(0)} ms`);
      const holding = await inTransactions();
      assert.ok(holding <= 8, `the creates held ${holding} of the 10 connections`);

      for (const answer of await Promise.all(creates)) {
        assert.equal(answer.status, 503);
        assert.equal(answer.retryAfter, '5');
        assert.deepEqual(answer.body, UNAVAILABLE_ANSWER);
      }
      const all = performance.now() - started;
      // The first ones may run to their call's 10 s deadline (a retry jittered to just before the 5 s mark
      // waits ~4 s more); the rest are answered at once. Before: the last answered after 137 s, each waiting
      // on the one before (the same document's blob) while its call ran to the deadline.
      assert.ok(all < 15_000, `the 20 creates took ${all.toFixed(0)} ms`);
      const next = await create();
      const nextMs = performance.now() - next.sent;
      assert.equal(next.status, 503);
      assert.ok(nextMs < 1_000, `a create once Temporal was known down took ${nextMs.toFixed(0)} ms`);
    } finally {
      await app.close();
      await pool.close();
    }
  });

  it('however long it lasts, the API dials Temporal again every few seconds and is ready soon after its return', async () => {
    // An address where connections are accepted and dropped at once: Temporal unreachable, each attempt seen.
    const dials: number[] = [];
    const port = await freePort();
    const dropping = net.createServer((socket) => {
      dials.push(performance.now());
      socket.destroy();
    });
    await new Promise<void>((resolve) => dropping.listen(port, '127.0.0.1', resolve));
    const temporal = temporalHandle(`127.0.0.1:${port}`, testEnvironment().config.temporalNamespace);
    const app = await startSecondApp({}, { temporal });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'notarization-outage-'));
    let devServer: Awaited<ReturnType<typeof startTemporalDevServer>> | undefined;
    try {
      // A load balancer's readiness checks through 30 s of outage: gRPC's own reconnect backoff would have
      // grown past 10 s by then (1 s × 1.6 per attempt, up to 120 s).
      const until = performance.now() + 30_000;
      while (performance.now() < until) {
        const ready = await fetch(`${app.url}/readyz`);
        assert.equal(ready.status, 503);
        await ready.body?.cancel();
        await letTimePass(250);
      }
      const gaps = dials.slice(1).map((at, i) => at - dials[i]);
      assert.ok(dials.length >= 6, `only ${dials.length} attempts in 30 s`);
      const longest = Math.max(...gaps);
      // 5 s at most between attempts, with gRPC's ±20 % jitter, and a readiness check's interval.
      assert.ok(longest < 6_500, `attempts ${gaps.map((g) => (g / 1000).toFixed(1)).join(', ')} s apart`);

      await new Promise<void>((resolve) => dropping.close(() => resolve()));
      devServer = await startTemporalDevServer({
        dataDir,
        port,
        uiPort: await freePort(),
        persistent: false,
        log: () => {},
      });
      // Within the longest backoff (and its jitter) of the dev server's serving.
      await eventually(
        async () => (await fetch(`${app.url}/readyz`)).status,
        (status) => status === 200,
        'the API ready again',
        { timeoutMs: 8_000, intervalMs: 250 },
      );
    } finally {
      await app.close();
      await temporal.connection.close();
      dropping.close();
      await devServer?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
