import assert from 'node:assert/strict';
import { request } from '../support/http';
import { eventually } from '../support/eventually';
import { tokenOf } from '../support/sessions';
import { memberToken } from '../team/helpers';
import { query, readySession, teamAccount, teamBody } from './helpers';

/** A cancelled session's link, as JSON and as its page, once its session_cancelled is published. */
async function cancelledLink(signingUrl: string) {
  const link = `/sign/${tokenOf(signingUrl)}`;
  const json = await eventually(
    () => request(link, { headers: { accept: 'application/json' } }),
    (res) => res.status === 410 && res.body.cancelled_by !== undefined,
    'the link to say who cancelled its session',
  );
  const page = await request(link, { headers: { accept: 'text/html' } });
  return { json, page };
}

async function cancelledEvent(sessionId: string) {
  const [event] = await query<{ payload: { data: unknown } }>(
    `SELECT payload FROM events WHERE session_id = $1 AND event = 'session_cancelled'`,
    [sessionId],
  );
  return event.payload.data;
}

/** Issue 70: a cancelled session's participants are told who cancelled it, and so is its integrator. */
describe('who cancelled a session', function () {
  this.timeout(60_000);

  it('its notary: the signer’s page says the notary did, and session_cancelled says `notary`', async () => {
    const { account, apiKey, notaryEmail } = await teamAccount();
    const created = await readySession(apiKey, await teamBody(notaryEmail));
    const token = await memberToken(account.vendor_api_key, notaryEmail);
    const cancelled = await request(`/api/integrationsv2/sessions/${created.bn_session_id}/cancel`, {
      auth: token,
      body: { reason: 'the signer asked to stop' },
    });
    assert.equal(cancelled.status, 200, cancelled.text);
    const { json, page } = await cancelledLink(created.bn_signing_url);
    assert.equal(json.body.cancelled_by, 'notary');
    assert.equal(page.status, 410);
    assert.match(page.text, /Your notary cancelled it\. Contact the company that invited you/);
    assert.doesNotMatch(page.text, /The company that invited you cancelled it/);
    assert.deepEqual(await cancelledEvent(created.bn_session_id), {
      reason: 'the signer asked to stop',
      cancelled_by: 'notary',
    });
  });

  it('its account: the page names the company, and session_cancelled says `account`', async () => {
    const { apiKey, notaryEmail } = await teamAccount();
    const created = await readySession(apiKey, await teamBody(notaryEmail));
    const cancelled = await request(`/api/integrationsv2/sessions/${created.bn_session_id}/cancel`, {
      auth: apiKey,
      body: {},
    });
    assert.equal(cancelled.status, 200, cancelled.text);
    const { json, page } = await cancelledLink(created.bn_signing_url);
    assert.equal(json.body.cancelled_by, 'account');
    assert.match(page.text, /The company that invited you cancelled it\./);
    assert.deepEqual(await cancelledEvent(created.bn_session_id), { cancelled_by: 'account' });
  });
});
