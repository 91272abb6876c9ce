import assert from 'node:assert/strict';
import { request } from '../support/http';
import { TEST_METRICS_TOKEN } from '../support/environment';
import { createTestAccount } from '../support/accounts';
import { eventually } from '../support/eventually';
import { action } from '../support/sessions';
import { onDemandSession, signerJoins } from '../network/helpers';
import { Sequelize } from 'sequelize';
import { createLogger } from '../../src/logger';
import { startSecondApp } from '../support/secondApp';
import { freePort } from '../support/freePort';

/** A series' value in the Prometheus text, or undefined when it is not there. */
async function metric(series: string): Promise<number | undefined> {
  const res = await request('/metrics', { auth: TEST_METRICS_TOKEN });
  assert.equal(res.status, 200);
  const line = res.text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('operations endpoints', () => {
  it('GET /healthz answers while the process is alive', async () => {
    const res = await request('/healthz');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ok' });
  });

  it('GET /readyz reports PostgreSQL and Temporal reachable', async () => {
    const res = await request('/readyz');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ok', checks: { database: 'ok', temporal: 'ok' } });
  });

  it('GET /metrics exposes HTTP latency by route template and status, and process metrics', async () => {
    await request('/healthz');
    await request('/api/integrationsv2/no-such-route');
    const res = await request('/metrics', { auth: TEST_METRICS_TOKEN });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /text\/plain/);
    assert.match(
      res.text,
      /http_request_duration_seconds_bucket\{[^}]*method="GET",route="\/healthz",status="200"/,
    );
    assert.match(
      res.text,
      /http_request_duration_seconds_count\{method="GET",route="unmatched",status="404"\}/,
    );
    assert.match(res.text, /process_cpu_user_seconds_total/);
    assert.match(res.text, /nodejs_heap_size_used_bytes/);
  });

  it('GET /metrics tells how many signers wait for a network notary, by state, and the longest wait', async () => {
    const account = await createTestAccount();
    // Kentucky is this test's own state: no network notary is commissioned there.
    const sessions = [
      await onDemandSession(account.api_key, 'KY'),
      await onDemandSession(account.api_key, 'KY'),
    ];
    const waiting = 'notary_queue_sessions{state="KY"}';
    const longest = 'notary_queue_longest_wait_seconds{state="KY"}';
    assert.equal(await metric(waiting), undefined, 'nobody waits before a signer joins');

    await signerJoins(sessions[0]);
    await eventually(
      () => metric(waiting),
      (n) => n === 1,
      'one signer waiting in Kentucky',
    );
    await signerJoins(sessions[1]);
    await eventually(
      () => metric(waiting),
      (n) => n === 2,
      'two signers waiting in Kentucky',
    );
    const first = (await metric(longest))!;
    assert.ok(first > 0, `the longest wait is ${first} s`);
    await eventually(
      () => metric(longest),
      (s) => s! > first,
      'the longest wait to grow',
    );

    for (const s of sessions)
      assert.equal((await action(account.api_key, s.bn_session_id, 'cancel')).status, 200);
    await eventually(
      () => metric(waiting),
      (n) => n === undefined,
      'nobody left waiting in Kentucky',
    );
    assert.equal(await metric(longest), undefined);
  });

  it('GET /metrics still answers with PostgreSQL unreachable, leaving the queue out and logging why', async () => {
    const unreachable = new Sequelize(`postgres://nobody@127.0.0.1:${await freePort()}/none`, {
      logging: false,
      pool: { acquire: 2_000 },
    });
    const lines: string[] = [];
    const logger = createLogger('warn', 'metrics-test', { write: (line: string) => lines.push(line) });
    const app = await startSecondApp({}, { sequelize: unreachable, logger });
    try {
      const res = await fetch(`${app.url}/metrics`, {
        headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` },
      });
      assert.equal(res.status, 200);
      const text = await res.text();
      // The rest of the scrape is there: the process's own figures.
      assert.match(text, /^notary_time_to_accept_seconds_count 0$/m);
      assert.doesNotMatch(text, /^notary_queue_/m);
      assert.match(lines.join(''), /"msg":"the notary queue could not be read for \/metrics"/);
    } finally {
      await app.close();
      await unreachable.close();
    }
  });

  it('every response carries an x-request-id, echoing a sane one from the caller', async () => {
    const generated = await request('/healthz');
    assert.match(generated.headers.get('x-request-id')!, /^[0-9a-f-]{36}$/);
    const echoed = await request('/healthz', { headers: { 'x-request-id': 'caller-123.abc' } });
    assert.equal(echoed.headers.get('x-request-id'), 'caller-123.abc');
    const replaced = await request('/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    assert.notEqual(replaced.headers.get('x-request-id'), 'bad id with spaces');
  });

  it('GET /docs renders the OpenAPI document with Swagger UI served locally', async () => {
    const page = await request('/docs');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type')!, /text\/html/);
    assert.match(page.text, /swagger-ui-bundle\.js/);
    const bundle = await request('/docs/assets/swagger-ui-bundle.js');
    assert.equal(bundle.status, 200);
    assert.ok(bundle.text.length > 100_000);
    assert.match(page.text, /data-spec="\/api\/integrationsv2\/openapi\.json"/);
    assert.equal((await request('/assets/docs.js')).status, 200);
    assert.equal((await request('/docs/assets/..%2Fpackage.json')).status, 404);
  });
});
