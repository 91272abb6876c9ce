import assert from 'node:assert/strict';
import { addTeamNotary, createTestAccount } from '../support/accounts';
import { createSession, sessionBody } from '../support/sessions';
import { testEnvironment } from '../support/environment';
import { completedSession } from '../documents/helpers';

/** GET without following redirects: the redirect target is another site. */
async function completionPage(query: string) {
  return fetch(`${testEnvironment().apiUrl}/complete?${query}`, { redirect: 'manual' });
}

describe('completion page (contract §3)', () => {
  it("redirects to the account's completion URL with notarization_id as a query parameter", async () => {
    const account = await createTestAccount({ completionRedirectUrl: 'https://acme.test/done?from=notary' });
    const notary = await addTeamNotary(account.account_id);
    const created = await createSession(
      account.api_key,
      await sessionBody({ session_notary_email: notary.email }),
    );
    const { bn_session_id: id, notarization_id: nid } = created.body;
    for (const query of [`notarization_id=${nid}&bn_session_id=${id}`, `notarization_id=${nid}`]) {
      const res = await completionPage(query);
      assert.equal(res.status, 302, query);
      const location = new URL(res.headers.get('location')!);
      assert.equal(location.origin + location.pathname, 'https://acme.test/done');
      assert.equal(location.searchParams.get('notarization_id'), nid);
      assert.equal(location.searchParams.get('from'), 'notary');
    }
  });

  it('shows a completion page when the account has no redirect URL', async () => {
    const account = await createTestAccount();
    const notary = await addTeamNotary(account.account_id);
    const created = await createSession(
      account.api_key,
      await sessionBody({ session_notary_email: notary.email }),
    );
    const res = await completionPage(`notarization_id=${created.body.notarization_id}`);
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /Thank you/);
    assert.ok(html.includes(created.body.notarization_id));
  });

  it('after a completed session: the documents, where they are (held by the notary), and what comes next', async () => {
    const account = await createTestAccount();
    const notary = await addTeamNotary(account.account_id);
    const { created } = await completedSession(
      account.api_key,
      await sessionBody({
        session_notary_email: notary.email,
        final_documents_delivery_mode: 'notary_manual',
      }),
      'held',
    );
    const res = await completionPage(`bn_session_id=${created.bn_session_id}`);
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /Thank you: your notarization is complete/);
    assert.match(html, /<li>deed\.pdf<\/li>/);
    assert.match(
      html,
      /data-status="held">Your notarized documents are ready and the notary will release them shortly/,
    );
    assert.match(html, /What happens next/);
  });

  it('escapes what it echoes and never redirects for an unknown reference', async () => {
    const res = await completionPage(`notarization_id=${encodeURIComponent('<script>x</script>')}`);
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.ok(!html.includes('<script>x</script>'));
    assert.ok(html.includes('&lt;script&gt;'));
  });
});
