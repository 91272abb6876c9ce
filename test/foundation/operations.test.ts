import assert from 'node:assert/strict';
import { request } from '../support/http';
import { TEST_METRICS_TOKEN } from '../support/environment';

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
