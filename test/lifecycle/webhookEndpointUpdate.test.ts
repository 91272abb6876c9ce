import assert from 'node:assert/strict';
import { addTeamNotary, createTestAccount } from '../support/accounts';
import { eventually } from '../support/eventually';
import { request } from '../support/http';
import { createSession, sessionBody } from '../support/sessions';
import { subscribe, WebhookReceiver } from '../support/webhookReceiver';

const update = (apiKey: string, id: string, body: unknown) =>
  request(`/api/integrationsv2/webhooks/${id}`, { auth: apiKey, method: 'PATCH', body });

/** An account with a team notary: each `newSession()` publishes its session_created. */
async function accountWithSessions() {
  const account = await createTestAccount();
  const notary = await addTeamNotary(account.account_id);
  const newSession = async () =>
    (await createSession(account.api_key, await sessionBody({ session_notary_email: notary.email }))).body
      .bn_session_id as string;
  return { account, newSession };
}

async function deliveries(apiKey: string, endpointId: string): Promise<any[]> {
  const res = await request(`/api/integrationsv2/webhooks/${endpointId}/deliveries`, { auth: apiKey });
  assert.equal(res.status, 200);
  return res.body.data;
}

describe('PATCH /webhooks/{id}: an endpoint changed in place, its secret and deliveries kept', function () {
  this.timeout(60_000);
  const receivers: WebhookReceiver[] = [];
  const receiver = async (fallbackStatus = 200) => {
    const made = new WebhookReceiver();
    made.fallbackStatus = fallbackStatus;
    receivers.push(made);
    return { receiver: made, url: await made.start() };
  };
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.stop()));
  });

  it('a new url takes the next attempt of a delivery being retried, with the same webhook-id', async () => {
    const failing = await receiver(500);
    const working = await receiver();
    const { account, newSession } = await accountWithSessions();
    const id = await subscribe(account.api_key, failing.url, ['session_created']);
    const sessionId = await newSession();
    const [refused] = await failing.receiver.waitFor((r) => r.length >= 1);

    const changed = await update(account.api_key, id, { url: working.url });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.url, working.url);
    assert.deepEqual(changed.body.events, ['session_created'], 'what was not given stays');
    assert.equal(changed.body.secret, undefined, 'the secret is shown only at its creation');

    const [moved] = await working.receiver.waitFor((r) => r.length >= 1);
    assert.equal(moved.json.bn_session_id, sessionId);
    assert.equal(moved.headers['webhook-id'], refused.headers['webhook-id']);
    const delivered = await eventually(
      () => deliveries(account.api_key, id),
      (rows) => rows[0]?.status === 'delivered',
      'the delivery delivered at its new url',
    );
    assert.equal(delivered[0].attempts.at(-1).status_code, 200);
  });

  it('re-enabled after a 410, its disabled delivery can be redelivered; disabled, its events make none', async () => {
    const gone = await receiver();
    gone.receiver.statuses = [410];
    const { account, newSession } = await accountWithSessions();
    const id = await subscribe(account.api_key, gone.url, ['session_created']);
    await newSession();
    const [disabled] = await eventually(
      () => deliveries(account.api_key, id),
      (rows) => rows[0]?.status === 'disabled',
      'the delivery the receiver answered 410',
    );
    const redeliver = () =>
      request(`/api/integrationsv2/webhooks/deliveries/${disabled.delivery_id}/redeliver`, {
        auth: account.api_key,
        method: 'POST',
      });
    assert.equal((await redeliver()).status, 409);

    const enabled = await update(account.api_key, id, { enabled: true });
    assert.equal(enabled.status, 200, enabled.text);
    assert.equal(enabled.body.disabled_at, null);
    assert.equal(enabled.body.disabled_reason, null);
    assert.equal((await redeliver()).status, 202);
    await eventually(
      () => deliveries(account.api_key, id),
      (rows) => rows.find((d) => d.delivery_id === disabled.delivery_id)?.status === 'delivered',
      'the redelivered delivery',
    );

    const off = await update(account.api_key, id, { enabled: false, events: null });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.body.events, null);
    assert.equal(off.body.disabled_reason, 'disabled through the API');
    assert.ok(off.body.disabled_at);
    const quiet = await newSession();
    await eventually(
      async () =>
        (await request(`/api/integrationsv2/sessions/${quiet}/audit`, { auth: account.api_key })).body
          .records,
      (records: any[]) => records.some((r) => r.event === 'session_created'),
      'the session_created of the session made while disabled',
    );
    assert.ok(
      (await deliveries(account.api_key, id)).every((d) => d.bn_session_id !== quiet),
      'no delivery of an event published while disabled',
    );
  });

  it('refuses nothing to change, bad fields, and endpoints it does not own', async () => {
    const target = await receiver();
    const { account } = await createTestAccountWithHook(target.url);
    const other = await createTestAccount();
    for (const body of [
      {},
      { events: [] },
      { events: ['no_such_event'] },
      { url: 'ftp://x.test' },
      { enabled: 'yes' },
      { secret: 'x' },
    ]) {
      const refused = await update(account.api_key, account.hook, body);
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.equal(refused.body.response, 'Fail');
    }
    assert.equal((await update(other.api_key, account.hook, { enabled: true })).status, 404);
    assert.equal((await update(account.api_key, 'not-an-id', { enabled: true })).status, 404);
    const [endpoint] = (await request('/api/integrationsv2/webhooks', { auth: account.api_key })).body.data;
    assert.deepEqual(
      { url: endpoint.url, events: endpoint.events, disabled_at: endpoint.disabled_at },
      { url: target.url, events: null, disabled_at: null },
      'unchanged',
    );
  });
});

async function createTestAccountWithHook(url: string) {
  const account = await createTestAccount();
  const hook = await request('/api/integrationsv2/webhooks', { auth: account.api_key, body: { url } });
  assert.equal(hook.status, 201);
  return { account: { ...account, hook: hook.body.id as string } };
}
