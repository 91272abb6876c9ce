import assert from 'node:assert/strict';
import { addTeamNotary, createTestAccount, type TestAccountOptions } from '../support/accounts';
import { request } from '../support/http';
import { sessionBody, tokenOf } from '../support/sessions';
import { testEnvironment } from '../support/environment';
import { completedSession } from '../documents/helpers';

/** GET without following redirects: the redirect target is another site. */
async function completionPage(query: string) {
  return fetch(`${testEnvironment().apiUrl}/complete?${query}`, { redirect: 'manual' });
}

/**
 * A completed session of a new account, and the completion link its signer holds: the signing link's
 * ended answer gives it (the completion e-mail carries the same).
 */
async function completedWithLink(
  options: TestAccountOptions = {},
  delivery: 'immediately' | 'notary_manual' = 'immediately',
) {
  const account = await createTestAccount(options);
  const notary = await addTeamNotary(account.account_id);
  const { created } = await completedSession(
    account.api_key,
    await sessionBody({ session_notary_email: notary.email, final_documents_delivery_mode: delivery }),
    delivery === 'notary_manual' ? 'held' : 'released',
  );
  const ended = await request(`/sign/${tokenOf(created.bn_signing_url)}`, {
    headers: { accept: 'application/json' },
  });
  assert.equal(ended.status, 410, ended.text);
  const link = new URL(ended.body.completion_url);
  return { created, query: link.search.slice(1), link };
}

describe('completion page (contract §3)', function () {
  this.timeout(120_000);

  it("redirects a participant's link to the account's completion URL with notarization_id", async () => {
    const { created, query } = await completedWithLink({
      completionRedirectUrl: 'https://acme.test/done?from=notary',
    });
    const res = await completionPage(query);
    assert.equal(res.status, 302, query);
    const location = new URL(res.headers.get('location')!);
    assert.equal(location.origin + location.pathname, 'https://acme.test/done');
    assert.equal(location.searchParams.get('notarization_id'), created.notarization_id);
    assert.equal(location.searchParams.get('from'), 'notary');
  });

  it('after a completed session: the documents, where they are (held by the notary), and what comes next', async () => {
    const { created, link } = await completedWithLink({}, 'notary_manual');
    assert.equal(link.origin, 'https://notary.test', "the link is on the service's public base URL");
    const res = await completionPage(link.search.slice(1));
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /Thank you: your notarization is complete/);
    assert.match(html, /<li>deed\.pdf<\/li>/);
    assert.match(
      html,
      /data-status="held">Your notarized documents are ready and the notary will release them shortly/,
    );
    assert.match(html, /What happens next/);
    assert.ok(html.includes(created.notarization_id));
  });

  it('escapes what it echoes', async () => {
    const { link } = await completedWithLink();
    link.searchParams.set('notarization_id', '<script>x</script>');
    const res = await completionPage(link.search.slice(1));
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.ok(!html.includes('<script>x</script>'));
    assert.ok(html.includes('&lt;script&gt;'));
  });

  it('shows nothing of a session, and never redirects, without a valid link', async () => {
    const { created, link } = await completedWithLink({ completionRedirectUrl: 'https://acme.test/done' });
    const expired = new URL(link);
    expired.searchParams.set('expires', String(Math.floor(Date.now() / 1000) - 1));
    const forged = new URL(link);
    forged.searchParams.set('bn_session_id', crypto.randomUUID());
    for (const query of [
      `notarization_id=${created.notarization_id}`,
      `notarization_id=${created.notarization_id}&bn_session_id=${created.bn_session_id}`,
      expired.search.slice(1),
      forged.search.slice(1),
    ]) {
      const res = await completionPage(query);
      assert.equal(res.status, 200, query);
      const html = await res.text();
      assert.match(html, /Thank you/);
      assert.ok(!html.includes('deed.pdf') && !html.includes(created.notarization_id), `${query}: ${html}`);
    }
  });
});
