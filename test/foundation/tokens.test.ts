import assert from 'node:assert/strict';
import { request } from '../support/http';
import { createTestAccount } from '../support/accounts';
import { rotateKey } from '../../src/accounts/accounts';
import { testEnvironment } from '../support/environment';

const REFRESH = '/api/integrationsv2/auth/refresh';

describe('POST /auth/refresh', () => {
  it('exchanges an API key for a JWT access token and a refresh token', async () => {
    const account = await createTestAccount();
    const res = await request(REFRESH, { body: { api_key: account.api_key } });
    assert.equal(res.status, 200);
    assert.equal(res.body.token_type, 'Bearer');
    assert.equal(res.body.expires_in, 900);
    assert.match(res.body.access_token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.match(res.body.refresh_token, /^[\w-]{43}$/);
    const claims = JSON.parse(Buffer.from(res.body.access_token.split('.')[1], 'base64url').toString());
    assert.equal(claims.sub, account.account_id);
    assert.equal(claims.knd, 'api');
  });

  it('exchanges a vendor key too, minting a vendor-scoped token', async () => {
    const account = await createTestAccount();
    const res = await request(REFRESH, { body: { api_key: account.vendor_api_key } });
    assert.equal(res.status, 200);
    const claims = JSON.parse(Buffer.from(res.body.access_token.split('.')[1], 'base64url').toString());
    assert.equal(claims.knd, 'vendor');
  });

  it('refuses unknown keys, access tokens and malformed bodies', async () => {
    const account = await createTestAccount();
    const wrongSecret = account.api_key.slice(0, -4) + 'AAAA';
    assert.equal((await request(REFRESH, { body: { api_key: wrongSecret } })).status, 401);
    assert.deepEqual((await request(REFRESH, { body: { api_key: 'nope' } })).body, {
      response: 'Fail',
      response_message: 'Unauthorized',
    });
    const pair = (await request(REFRESH, { body: { api_key: account.api_key } })).body;
    assert.equal((await request(REFRESH, { body: { api_key: pair.access_token } })).status, 401);
    assert.equal((await request(REFRESH, { body: { api_key: 'a', refresh_token: 'b' } })).status, 400);
  });

  it('rotates refresh tokens: each is single use and yields the next', async () => {
    const account = await createTestAccount();
    const first = (await request(REFRESH, { body: { api_key: account.api_key } })).body;
    const second = await request(REFRESH, { body: { refresh_token: first.refresh_token } });
    assert.equal(second.status, 200);
    assert.notEqual(second.body.refresh_token, first.refresh_token);
    assert.notEqual(second.body.access_token, first.access_token);
    const third = await request(REFRESH, { body: { refresh_token: second.body.refresh_token } });
    assert.equal(third.status, 200);
  });

  it('detects reuse of a spent refresh token and revokes the whole family', async () => {
    const account = await createTestAccount();
    const first = (await request(REFRESH, { body: { api_key: account.api_key } })).body;
    const second = (await request(REFRESH, { body: { refresh_token: first.refresh_token } })).body;
    const replay = await request(REFRESH, { body: { refresh_token: first.refresh_token } });
    assert.equal(replay.status, 401);
    // The legitimate holder's newer token died with the family.
    assert.equal((await request(REFRESH, { body: { refresh_token: second.refresh_token } })).status, 401);
    // Another family of the same key is untouched.
    const other = (await request(REFRESH, { body: { api_key: account.api_key } })).body;
    assert.equal((await request(REFRESH, { body: { refresh_token: other.refresh_token } })).status, 200);
  });

  it('lets only one of two concurrent refreshes with the same token succeed', async () => {
    const account = await createTestAccount();
    const first = (await request(REFRESH, { body: { api_key: account.api_key } })).body;
    const results = await Promise.all(
      [1, 2].map(() => request(REFRESH, { body: { refresh_token: first.refresh_token } })),
    );
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 401]);
  });

  it('stops refreshing once the key that started the family is rotated', async () => {
    const account = await createTestAccount();
    const first = (await request(REFRESH, { body: { api_key: account.api_key } })).body;
    await rotateKey(testEnvironment().runtime.sequelize, account.account_id, 'api');
    assert.equal((await request(REFRESH, { body: { refresh_token: first.refresh_token } })).status, 401);
    assert.equal((await request(REFRESH, { body: { api_key: account.api_key } })).status, 401);
  });
});
