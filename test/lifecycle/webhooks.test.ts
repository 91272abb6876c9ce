import { startAppWithTemporalDown, startSecondApp } from '../support/secondApp';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { addTeamNotary, createTestAccount } from '../support/accounts';
import { request } from '../support/http';
import { createSession, sessionBody, waitForSession } from '../support/sessions';
import { subscribe, WebhookReceiver } from '../support/webhookReceiver';
import { recordHistory } from '../support/histories';
import { testEnvironment } from '../support/environment';
import { untilRunning } from '../support/workflows';
import { eventually, letTimePass } from '../support/eventually';
import { temporal } from '@temporalio/proto';

async function sessionWithHook(events: string[], receiverUrl: string) {
  const account = await createTestAccount();
  const endpointId = await subscribe(account.api_key, receiverUrl, events);
  const notary = await addTeamNotary(account.account_id);
  const created = await createSession(
    account.api_key,
    await sessionBody({ session_notary_email: notary.email }),
  );
  return { account, endpointId, sessionId: created.body.bn_session_id as string };
}

async function deliveries(apiKey: string, endpointId: string) {
  const res = await request(`/api/integrationsv2/webhooks/${endpointId}/deliveries`, { auth: apiKey });
  assert.equal(res.status, 200);
  return res.body.data as any[];
}

async function waitForDelivery(apiKey: string, endpointId: string, predicate: (d: any) => boolean) {
  const all = await eventually(
    () => deliveries(apiKey, endpointId),
    (rows) => rows.some(predicate),
    'a delivery in the expected state',
  );
  return all.find(predicate);
}

/**
 * A session whose session_created went to a receiver that did not take it: the publisher's first attempt
 * is recorded, and the delivery's workflow carries the rest.
 */
async function retryingDelivery(receiverUrl: string) {
  const { account, endpointId } = await sessionWithHook(['session_created'], receiverUrl);
  const pending = await waitForDelivery(
    account.api_key,
    endpointId,
    (d) => d.status === 'pending' && d.attempts.length > 0,
  );
  const retrying = testEnvironment().runtime.temporal.client.workflow.getHandle(
    `webhook-delivery-${pending.delivery_id}`,
  );
  const { runId } = await untilRunning(retrying, 'the delivery workflow to be retrying');
  return { account, endpointId, pending, retrying, runId };
}

describe('webhook deliveries', () => {
  let receiver: WebhookReceiver;
  let url: string;
  beforeEach(async () => {
    receiver = new WebhookReceiver();
    url = await receiver.start();
  });
  afterEach(() => receiver.stop());

  it('manages endpoints: secret shown once, list without it, delete', async () => {
    const account = await createTestAccount();
    const created = await request('/api/integrationsv2/webhooks', {
      auth: account.api_key,
      body: { url, events: ['session_created'] },
    });
    assert.equal(created.status, 201);
    assert.match(created.body.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    assert.deepEqual(created.body.events, ['session_created']);
    const list = await request('/api/integrationsv2/webhooks', { auth: account.api_key });
    assert.equal(list.body.data.length, 1);
    assert.equal(list.body.data[0].secret, undefined);
    const other = await createTestAccount();
    assert.equal(
      (await request('/api/integrationsv2/webhooks', { auth: other.api_key })).body.data.length,
      0,
    );
    assert.equal(
      (
        await request(`/api/integrationsv2/webhooks/${created.body.id}`, {
          auth: other.api_key,
          method: 'DELETE',
        })
      ).status,
      404,
    );
    assert.equal(
      (
        await request(`/api/integrationsv2/webhooks/${created.body.id}`, {
          auth: account.api_key,
          method: 'DELETE',
        })
      ).status,
      200,
    );
    assert.equal(
      (await request('/api/integrationsv2/webhooks', { auth: account.api_key })).body.data.length,
      0,
    );
    const bad = await request('/api/integrationsv2/webhooks', {
      auth: account.api_key,
      body: { url, events: ['nope'] },
    });
    assert.equal(bad.status, 400);
  });

  it('retries a failing receiver on the schedule with a stable webhook-id, recording every attempt', async () => {
    receiver.statuses = [500, 503];
    const { account, endpointId } = await sessionWithHook(['session_created'], url);
    await receiver.waitFor((r) => r.length >= 3);
    const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
    assert.equal(ids.size, 1);
    // WEBHOOK_RETRY_SCHEDULE is 1s,1s,1s in tests.
    assert.ok(receiver.received[1].receivedAt - receiver.received[0].receivedAt >= 900);
    const delivery = await waitForDelivery(account.api_key, endpointId, (d) => d.status === 'delivered');
    assert.equal(delivery.attempt_count, 3);
    assert.deepEqual(
      delivery.attempts.map((a: any) => [a.status_code, a.success]),
      [
        [500, false],
        [503, false],
        [200, true],
      ],
    );
    assert.ok(delivery.attempts.every((a: any) => Number.isInteger(a.latency_ms)));
    // The first attempt was the publisher's; the delivery workflow made the other two.
    await recordHistory('webhook-delivery-after-first-attempt', `webhook-delivery-${delivery.delivery_id}`);
  });

  it('an attempt whose database writes fail is retried by Temporal until they pass: the event is not lost', async function () {
    this.timeout(60_000);
    const sequelize = testEnvironment().runtime.sequelize;
    // PostgreSQL refuses to record this receiver's attempts, as it would while it restarts.
    await sequelize.query(`
      CREATE OR REPLACE FUNCTION refuse_webhook_attempts() RETURNS trigger AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
                    WHERE d.id = NEW.delivery_id AND e.url = '${url}') THEN
          RAISE EXCEPTION 'webhook_attempts refused by the test';
        END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql;
      CREATE TRIGGER refuse_webhook_attempts BEFORE INSERT ON webhook_attempts
        FOR EACH ROW EXECUTE FUNCTION refuse_webhook_attempts();`);
    let hooked: Awaited<ReturnType<typeof sessionWithHook>>;
    try {
      hooked = await sessionWithHook(['session_created'], url);
      // Four activity attempts: one more than the policy that lost events allowed.
      await receiver.waitFor((r) => r.length >= 4, 30_000);
      const [pending] = await deliveries(hooked.account.api_key, hooked.endpointId);
      assert.equal(pending.status, 'pending', 'nothing recorded yet, and nothing given up');
    } finally {
      await sequelize.query(`
        DROP TRIGGER IF EXISTS refuse_webhook_attempts ON webhook_attempts;
        DROP FUNCTION IF EXISTS refuse_webhook_attempts();`);
    }
    const delivered = await waitForDelivery(
      hooked.account.api_key,
      hooked.endpointId,
      (d) => d.status === 'delivered',
    );
    assert.deepEqual(
      delivered.attempts.map((a: any) => [a.status_code, a.success]),
      [[200, true]],
      'the attempt that could be recorded',
    );
    assert.equal(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size, 1, 'one event');
  });

  it('gives up after the schedule is spent, then redelivers on request with the same webhook-id', async () => {
    receiver.fallbackStatus = 500;
    const { account, endpointId } = await sessionWithHook(['session_created'], url);
    const failed = await waitForDelivery(account.api_key, endpointId, (d) => d.status === 'failed');
    assert.equal(failed.attempt_count, 4);
    assert.equal(failed.failure_reason, 'retries_exhausted');
    receiver.fallbackStatus = 204;
    const redeliver = await request(
      `/api/integrationsv2/webhooks/deliveries/${failed.delivery_id}/redeliver`,
      { auth: account.api_key, body: {} },
    );
    assert.equal(redeliver.status, 202);
    const delivered = await waitForDelivery(account.api_key, endpointId, (d) => d.status === 'delivered');
    assert.equal(delivered.attempts.at(-1).status_code, 204);
    assert.equal(delivered.failure_reason, null);
    assert.equal(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size, 1);
    const other = await createTestAccount();
    assert.equal(
      (
        await request(`/api/integrationsv2/webhooks/deliveries/${failed.delivery_id}/redeliver`, {
          auth: other.api_key,
          body: {},
        })
      ).status,
      404,
    );
  });

  it('a redelivery Temporal cannot take is a 503 with Retry-After, and leaves the delivery as it was', async () => {
    receiver.fallbackStatus = 500;
    const { account, endpointId } = await sessionWithHook(['session_created'], url);
    const failed = await waitForDelivery(account.api_key, endpointId, (d) => d.status === 'failed');
    const cut = await startAppWithTemporalDown();
    try {
      const refused = await fetch(
        `${cut.url}/api/integrationsv2/webhooks/deliveries/${failed.delivery_id}/redeliver`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${account.api_key}`, 'content-type': 'application/json' },
          body: '{}',
        },
      );
      assert.equal(refused.status, 503, await refused.clone().text());
      assert.ok(refused.headers.get('retry-after'));
    } finally {
      await cut.close();
    }
    const putBack = (await deliveries(account.api_key, endpointId))[0];
    assert.deepEqual([putBack.status, putBack.failure_reason], ['failed', 'retries_exhausted']);

    receiver.fallbackStatus = 204;
    const retried = await request(`/api/integrationsv2/webhooks/deliveries/${failed.delivery_id}/redeliver`, {
      auth: account.api_key,
      body: {},
    });
    assert.equal(retried.status, 202, retried.text);
    await waitForDelivery(account.api_key, endpointId, (d) => d.status === 'delivered');
  });

  it('a delivery whose retries an operator cancels in Temporal is given up as failed, and redelivers on request', async function () {
    this.timeout(60_000);
    // Its attempts go unanswered, so its workflow is still retrying (four attempts of 2 s) when cancelled.
    receiver.unanswered = (webhook) => webhook.json.event === 'session_created';
    const { account, endpointId } = await sessionWithHook(['session_created'], url);
    const pending = await waitForDelivery(account.api_key, endpointId, (d) => d.status === 'pending');
    const retrying = testEnvironment().runtime.temporal.client.workflow.getHandle(
      `webhook-delivery-${pending.delivery_id}`,
    );
    await untilRunning(retrying, 'the delivery workflow to be retrying');

    await retrying.cancel();

    await assert.rejects(retrying.result(), /cancelled/i);
    await waitForDelivery(account.api_key, endpointId, (d) => d.status === 'failed');
    // The attempt in flight when the retries were stopped ends later (its 2 s timeout): it must not
    // reopen the delivery.
    const sent = () => receiver.events('session_created').length;
    const failed = await waitForDelivery(account.api_key, endpointId, (d) => d.attempts.length === sent());
    assert.equal(failed.delivery_id, pending.delivery_id);
    assert.equal(failed.status, 'failed');
    assert.equal(
      failed.failure_reason,
      'stopped_by_operator',
      'the attempt in flight did not say the schedule ran out',
    );
    await recordHistory('webhook-delivery-cancelled-by-operator', `webhook-delivery-${pending.delivery_id}`);
    receiver.unanswered = undefined;
    const redeliver = await request(
      `/api/integrationsv2/webhooks/deliveries/${failed.delivery_id}/redeliver`,
      { auth: account.api_key, body: {} },
    );
    assert.equal(redeliver.status, 202, redeliver.text);
    await waitForDelivery(account.api_key, endpointId, (d) => d.status === 'delivered');
  });

  it('a redelivery of a delivery still being retried is taken by the workflow retrying it: one more attempt, a fresh schedule, nothing terminated', async function () {
    this.timeout(60_000);
    // Unanswered attempts (2 s each) keep the delivery's workflow retrying while it is asked to redeliver.
    receiver.unanswered = (webhook) => webhook.json.event === 'session_created';
    const { account, endpointId, pending, retrying, runId } = await retryingDelivery(url);

    const before = (await deliveries(account.api_key, endpointId))[0].attempts.length;
    const redeliver = await request(
      `/api/integrationsv2/webhooks/deliveries/${pending.delivery_id}/redeliver`,
      { auth: account.api_key, body: {} },
    );
    assert.equal(redeliver.status, 202, redeliver.text);
    receiver.unanswered = undefined;
    receiver.fallbackStatus = 500;

    const failed = await waitForDelivery(account.api_key, endpointId, (d) => d.status === 'failed');
    // The whole schedule again from the redelivery (the tests' 1s,1s,1s: four attempts), where the first
    // schedule had at most three left.
    assert.ok(
      failed.attempts.length - before >= 4,
      `${failed.attempts.length - before} attempts after the ${before} before the redelivery`,
    );
    // The last attempt records the delivery failed a moment before its workflow completes.
    assert.equal(await retrying.result(), 'failed');
    const described = await retrying.describe();
    assert.equal(described.runId, runId, 'the same run carried it');
    assert.equal(described.status.name, 'COMPLETED');
    const { events } = await retrying.fetchHistory();
    assert.ok(
      events!.some(
        (e) => e.eventType === temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED,
      ),
      'it took the redelivery as a signal',
    );
    await recordHistory('webhook-delivery-redelivered-while-retrying', retrying.workflowId);
  });

  it('a delivery redelivered over and over while it is retried continues in a fresh run, and still delivers', async function () {
    this.timeout(120_000);
    receiver.fallbackStatus = 500;
    const { account, endpointId, pending, retrying, runId: firstRunId } = await retryingDelivery(url);

    // Each redelivery asked for once the one before was attempted: about a dozen history events each.
    let redeliveries = 0;
    for (let run = firstRunId; run === firstRunId; run = (await retrying.describe()).runId) {
      assert.ok(redeliveries < 150, `still one run after ${redeliveries} redeliveries`);
      const sent = receiver.events('session_created').length;
      const redeliver = await request(
        `/api/integrationsv2/webhooks/deliveries/${pending.delivery_id}/redeliver`,
        { auth: account.api_key, body: {} },
      );
      assert.equal(redeliver.status, 202, redeliver.text);
      redeliveries++;
      await eventually(
        async () => receiver.events('session_created').length,
        (received) => received > sent,
        `redelivery ${redeliveries} attempted`,
      );
    }
    const { events } = await testEnvironment()
      .runtime.temporal.client.workflow.getHandle(retrying.workflowId, firstRunId)
      .fetchHistory();
    assert.ok(
      events!.length <= 1_050,
      `the first run closed at ${events!.length} events, after ${redeliveries} redeliveries`,
    );
    assert.equal(
      events!.at(-1)!.eventType,
      temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW,
    );
    await recordHistory('webhook-delivery-continued-as-new', retrying.workflowId, firstRunId);

    receiver.fallbackStatus = 200;
    assert.equal(await retrying.result(), 'delivered');
    const delivered = await waitForDelivery(account.api_key, endpointId, (d) => d.status === 'delivered');
    assert.equal(delivered.attempts.length, receiver.events('session_created').length);
  });

  it('disables the endpoint when the receiver answers 410 Gone', async () => {
    // A first failure, so session_created's delivery goes on in its workflow, which finds the endpoint
    // disabled by the 410 answered to it or to notary_assigned's first attempt.
    receiver.statuses = [500];
    receiver.fallbackStatus = 410;
    const { account, endpointId, sessionId } = await sessionWithHook(
      ['session_created', 'notary_assigned'],
      url,
    );
    const gone = await waitForDelivery(
      account.api_key,
      endpointId,
      (d) => d.status === 'disabled' && d.event === 'session_created',
    );
    await recordHistory('webhook-delivery-gone-after-first-attempt', `webhook-delivery-${gone.delivery_id}`);
    const [endpoint] = (await request('/api/integrationsv2/webhooks', { auth: account.api_key })).body.data;
    assert.ok(endpoint.disabled_at);
    assert.equal(endpoint.disabled_reason, 'receiver answered 410 Gone');
    await waitForSession(account.api_key, sessionId, (s) => s.status === 'ready');
    await letTimePass(500);
    // Nothing more is sent to a disabled endpoint, and the session went on regardless: notary_assigned was
    // either refused by the 410 too (when published before the endpoint was disabled) or never queued.
    const all = await deliveries(account.api_key, endpointId);
    assert.ok(all.every((d) => d.status === 'disabled'));
    assert.equal(
      receiver.received.length,
      all.reduce((n, d) => n + d.attempts.length, 0),
    );
  });

  it('the publisher attempts first: a healthy receiver needs no delivery workflow, a slow one is never sent an event twice at once', async function () {
    this.timeout(60_000);
    const client = testEnvironment().runtime.temporal.client;
    const healthy = await sessionWithHook(['session_created'], url);
    const delivered = await waitForDelivery(
      healthy.account.api_key,
      healthy.endpointId,
      (d) => d.status === 'delivered',
    );
    assert.equal(delivered.attempt_count, 1);
    await assert.rejects(
      client.workflow.getHandle(`webhook-delivery-${delivered.delivery_id}`).describe(),
      (err: Error) => err.name === 'WorkflowNotFoundError',
    );

    // Slower than the publisher waits (250 ms), within WEBHOOK_TIMEOUT (2 s): the delivery workflow takes
    // over only once the publisher's attempt has surely ended, finds it delivered, and sends nothing.
    const slowHits: number[] = [];
    const slow = http.createServer((_req, res) => {
      slowHits.push(Date.now());
      setTimeout(() => res.end('ok'), 1_000);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const late = await sessionWithHook(
        ['session_created'],
        `http://127.0.0.1:${(slow.address() as AddressInfo).port}/`,
      );
      const [pending] = await eventually(
        () => deliveries(late.account.api_key, late.endpointId),
        (rows) => rows.length === 1,
        'the delivery',
      );
      const workflow = client.workflow.getHandle(`webhook-delivery-${pending.delivery_id}`);
      const handedOver = await eventually(
        () => workflow.describe().catch(() => undefined),
        (described) => described !== undefined,
        'the delivery workflow',
      );
      assert.ok(handedOver);
      assert.equal(await workflow.result(), 'delivered');
      assert.equal(slowHits.length, 1, 'one request');
      const [done] = await deliveries(late.account.api_key, late.endpointId);
      assert.equal(done.attempt_count, 1);
    } finally {
      slow.closeAllConnections();
      slow.close();
    }
  });

  it('a slow receiver does not hold the session back', async () => {
    const slow = http.createServer((_req, res) => setTimeout(() => res.end('late'), 4_000));
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/`;
      const started = Date.now();
      const { account, sessionId, endpointId } = await sessionWithHook(
        ['session_created', 'invites_sent', 'notary_assigned'],
        slowUrl,
      );
      await waitForSession(account.api_key, sessionId, (s) => s.status === 'ready');
      assert.ok(
        Date.now() - started < 3_500,
        'the session reached ready while deliveries were still waiting',
      );
      // WEBHOOK_TIMEOUT is 2s in tests: the attempt is cut off, recorded as an error, and retried.
      const timedOut = await waitForDelivery(account.api_key, endpointId, (d) => d.attempts.length >= 1);
      const [attempt] = timedOut.attempts;
      assert.equal(attempt.status_code, null);
      assert.equal(attempt.success, false);
      assert.match(attempt.error, /timeout|abort/i);
      assert.ok(
        attempt.latency_ms >= 1_900 && attempt.latency_ms < 3_900,
        `cut off at the timeout (${attempt.latency_ms} ms)`,
      );
    } finally {
      slow.closeAllConnections();
      slow.close();
    }
  });

  it('refuses private and loopback targets outside development', async () => {
    const server = await startSecondApp({ allowPrivateWebhookTargets: false });
    try {
      const account = await createTestAccount();
      for (const target of [
        'http://127.0.0.1:9/hook',
        'http://10.1.2.3/hook',
        'http://[::1]/x',
        'http://localhost/x',
        'http://169.254.169.254/latest',
      ]) {
        const res = await fetch(`${server.url}/api/integrationsv2/webhooks`, {
          method: 'POST',
          headers: { authorization: `Bearer ${account.api_key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ url: target }),
        });
        assert.equal(res.status, 422, target);
        assert.match(((await res.json()) as any).response_message, /private or loopback/);
      }
    } finally {
      await server.close();
    }
  });
});
