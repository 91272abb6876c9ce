import assert from 'node:assert/strict';
import { createTestAccount } from '../support/accounts';
import { b64, pdfBytes } from '../support/documents';
import { request } from '../support/http';
import { startSecondApp } from '../support/secondApp';
import { teamNotarySession } from '../support/sessions';
import { MAX_DOCUMENTS_PER_REQUEST, MAX_DOCUMENTS_PER_SESSION } from '../../core/vocabulary';
import { MAX_WEBHOOK_ENDPOINTS } from '../../src/webhooks/endpointService';

/** Caps a real customer never meets and a script does (issue 10); each answers with the route's own failure. */
describe('per-account and per-session caps', () => {
  it(`a session holds at most ${MAX_DOCUMENTS_PER_SESSION} documents over all its requests`, async () => {
    const pdf = b64(await pdfBytes(1));
    const documents = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ name: `d${i}.pdf`, base64Doc: pdf }));
    const { account, id } = await teamNotarySession({
      session_documents: documents(MAX_DOCUMENTS_PER_REQUEST),
    });
    const add = (n: number) =>
      request(`/api/integrationsv2/sessions/${id}/documents`, {
        auth: account.api_key,
        body: { session_documents: documents(n) },
      });
    const room = MAX_DOCUMENTS_PER_SESSION - MAX_DOCUMENTS_PER_REQUEST;
    assert.equal((await add(MAX_DOCUMENTS_PER_REQUEST)).status, 200);
    const over = await add(room - MAX_DOCUMENTS_PER_REQUEST + 1);
    assert.equal(over.status, 403, over.text);
    assert.equal(
      over.body.response_message,
      `session_documents: a session holds at most ${MAX_DOCUMENTS_PER_SESSION} documents`,
    );
    const filled = await add(room - MAX_DOCUMENTS_PER_REQUEST);
    assert.equal(filled.status, 200, filled.text);
    assert.equal(filled.body.documents.length, MAX_DOCUMENTS_PER_SESSION);
  });

  it(`an account has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; deleting one makes room`, async () => {
    const { api_key } = await createTestAccount();
    const create = (i: number) =>
      request('/api/integrationsv2/webhooks', {
        auth: api_key,
        body: { url: `https://example.com/hook/${i}` },
      });
    const created = await Promise.all(Array.from({ length: MAX_WEBHOOK_ENDPOINTS }, (_, i) => create(i)));
    assert.deepEqual(new Set(created.map((r) => r.status)), new Set([201]));
    const refused = await create(MAX_WEBHOOK_ENDPOINTS);
    assert.equal(refused.status, 409, refused.text);
    assert.match(refused.body.response_message, /at most 20 webhook endpoints/);
    const removed = await request(`/api/integrationsv2/webhooks/${created[0].body.id}`, {
      method: 'DELETE',
      auth: api_key,
    });
    assert.equal(removed.status, 200, removed.text);
    assert.equal((await create(MAX_WEBHOOK_ENDPOINTS + 1)).status, 201);
  });

  it('a key holds at most MAX_LIVE_REFRESH_TOKENS_PER_KEY live refresh tokens: the oldest are revoked', async () => {
    const { api_key } = await createTestAccount();
    const app = await startSecondApp({ maxLiveRefreshTokensPerKey: 3 });
    try {
      const exchange = async (body: Record<string, string>) => {
        const res = await fetch(`${app.url}/api/integrationsv2/auth/refresh`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as { refresh_token: string } };
      };
      const tokens = [];
      for (let i = 0; i < 4; i++) tokens.push((await exchange({ api_key })).body.refresh_token);
      assert.equal((await exchange({ refresh_token: tokens[0] })).status, 401, 'the oldest was revoked');
      assert.equal((await exchange({ refresh_token: tokens[3] })).status, 200, 'the newest lives');
    } finally {
      await app.close();
    }
  });
});
