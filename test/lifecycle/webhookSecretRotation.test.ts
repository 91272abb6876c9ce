import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { addTeamNotary, createTestAccount } from '../support/accounts';
import { testEnvironment } from '../support/environment';
import { request } from '../support/http';
import { startSecondApp, type SecondApp } from '../support/secondApp';
import { action, createSession, sessionBody } from '../support/sessions';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhookReceiver';

/** Whether the standardwebhooks library, not the service's own code, accepts the delivery with `secret`. */
function verifies(secret: string, hook: ReceivedWebhook): boolean {
  try {
    new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

describe('webhook secrets rotate without a gap: POST /webhooks/{id}/rotate_secret', function () {
  this.timeout(60_000);
  let receiver: WebhookReceiver;
  let url: string;
  let graceless: SecondApp;

  before(async () => {
    // An API whose replaced secrets stop signing at once, for what follows the grace.
    graceless = await startSecondApp({ webhookSecretGraceMs: 0 });
  });
  after(() => graceless?.close());
  beforeEach(async () => {
    receiver = new WebhookReceiver();
    url = await receiver.start();
  });
  afterEach(() => receiver.stop());

  it('both secrets sign until previous_secret_expires_at, then the new one alone; a retried rotation answers the same', async () => {
    const account = await createTestAccount();
    const notary = await addTeamNotary(account.account_id);
    const created = await request('/api/integrationsv2/webhooks', {
      auth: account.api_key,
      body: { url, events: ['session_cancelled'] },
    });
    const { id, secret: first } = created.body;
    /** A session cancelled at once: its one event, as the receiver got it. */
    const cancelledSession = async () => {
      const session = await createSession(
        account.api_key,
        await sessionBody({ session_notary_email: notary.email }),
      );
      assert.equal((await action(account.api_key, session.body.bn_session_id, 'cancel')).status, 200);
      const mine = (h: ReceivedWebhook) => h.json.bn_session_id === session.body.bn_session_id;
      return (await receiver.waitFor((r) => r.some(mine))).find(mine)!;
    };

    const key = crypto.randomUUID();
    const rotate = () =>
      request(`/api/integrationsv2/webhooks/${id}/rotate_secret`, {
        auth: account.api_key,
        method: 'POST',
        headers: { 'idempotency-key': key },
      });
    const before = Date.now();
    const rotated = await rotate();
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    const second = rotated.body.secret;
    assert.match(second, /^whsec_/);
    assert.notEqual(second, first);
    assert.equal(rotated.body.id, id);
    const grace = Date.parse(rotated.body.previous_secret_expires_at) - before;
    assert.ok(Math.abs(grace - 24 * 3600_000) < 60_000, `grace ${grace} ms`);
    // The same request again, as after a lost answer: the same secret, not a second rotation.
    assert.deepEqual((await rotate()).body, rotated.body);

    const during = await cancelledSession();
    assert.equal(String(during.headers['webhook-signature']).split(' ').length, 2);
    assert.ok(verifies(second, during), 'the new secret verifies');
    assert.ok(verifies(first, during), 'the old one too, during the grace');

    const third = await fetch(`${graceless.url}/api/integrationsv2/webhooks/${id}/rotate_secret`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.api_key}` },
    }).then((r) => r.json() as Promise<{ secret: string; previous_secret_expires_at: string }>);
    assert.ok(Date.parse(third.previous_secret_expires_at) <= Date.now());
    const after = await cancelledSession();
    assert.equal(String(after.headers['webhook-signature']).split(' ').length, 1);
    assert.ok(verifies(third.secret, after), 'the newest secret verifies');
    assert.ok(!verifies(second, after), 'the replaced one, past its grace, does not');
    assert.ok(!verifies(first, after));
  });

  it("another account's endpoint, a deleted one and an id that is none are 404, and nothing changes", async () => {
    const owner = await createTestAccount();
    const other = await createTestAccount();
    const created = await request('/api/integrationsv2/webhooks', { auth: owner.api_key, body: { url } });
    const rotate = (apiKey: string, id: string) =>
      request(`/api/integrationsv2/webhooks/${id}/rotate_secret`, { auth: apiKey, method: 'POST' });
    const foreign = await rotate(other.api_key, created.body.id);
    assert.equal(foreign.status, 404);
    assert.deepEqual(foreign.body, { response: 'Fail', response_message: 'Webhook endpoint not found' });
    assert.equal((await rotate(owner.api_key, 'not-an-id')).status, 404);

    const hooks = await request('/api/integrationsv2/webhooks', { auth: owner.api_key });
    assert.equal(hooks.body.data[0].id, created.body.id, 'still there, its secret unchanged (below)');
    const [[row]] = (await testEnvironment().runtime.sequelize.query(
      'SELECT secret, previous_secret FROM webhook_endpoints WHERE id = $1',
      { bind: [created.body.id] },
    )) as unknown as [Array<{ secret: string; previous_secret: string | null }>];
    assert.deepEqual(row, { secret: created.body.secret, previous_secret: null });

    const removed = await request(`/api/integrationsv2/webhooks/${created.body.id}`, {
      auth: owner.api_key,
      method: 'DELETE',
    });
    assert.equal(removed.status, 200);
    assert.equal((await rotate(owner.api_key, created.body.id)).status, 404);
  });
});
