import assert from 'node:assert/strict';
import { request } from '../support/http';
import { testEnvironment } from '../support/environment';
import { startSecondApp } from '../support/secondApp';
import { createTestAccount } from '../support/accounts';
import { joinSession, signer, teamNotarySession, tokenOf } from '../support/sessions';

const page = (url: string) => request(`/sign/${tokenOf(url)}`, { headers: { accept: 'application/json' } });

describe('rate limits on the public routes (429 with Retry-After)', () => {
  it('one signing link gets RATE_LIMIT_PER_LINK_PER_MINUTE requests a minute; other links are not affected', async () => {
    const limit = testEnvironment().config.rateLimits.perLinkPerMinute;
    const { created } = await teamNotarySession({ all_signers: [signer(0), signer(1)] });
    const [first, second] = created.body.signing_urls.map((u: any) => u.bn_signing_url);
    for (let i = 0; i < limit - 1; i++) assert.equal((await page(first)).status, 200);
    assert.equal((await joinSession(first)).status, 200, 'joins count against the same link');
    const refused = await joinSession(first);
    assert.equal(refused.status, 429, refused.text);
    assert.deepEqual(refused.body, { response: 'Fail', response_message: 'Too many requests; retry later' });
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.equal((await page(first)).status, 429);
    assert.equal((await joinSession(second)).status, 200, 'another participant joins as usual');
  });

  it('one client gets RATE_LIMIT_PER_CLIENT_PER_MINUTE credential exchanges a minute', async () => {
    const { api_key } = await createTestAccount();
    const app = await startSecondApp({ rateLimits: { perLinkPerMinute: 60, perClientPerMinute: 5 } });
    try {
      const refresh = () =>
        fetch(`${app.url}/api/integrationsv2/auth/refresh`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ api_key }),
        });
      for (let i = 0; i < 5; i++) assert.equal((await refresh()).status, 200);
      const refused = await refresh();
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      const login = await fetch(`${app.url}/api/integrationsv2/auth/login_link`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login_link_id: 'x', key: 'y' }),
      });
      assert.equal(login.status, 429, 'one count covers every credential route');
    } finally {
      await app.close();
    }
  });
});
