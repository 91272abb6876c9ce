import assert from 'node:assert/strict';
import { createTestAccount } from '../support/accounts';
import { request } from '../support/http';
import { rotateKey } from '../../src/accounts/accounts';
import { testEnvironment } from '../support/environment';

const UNAUTHORIZED = { response: 'Fail', response_message: 'Unauthorized' };
/** One route of each class: session routes take the API key, team routes the vendor key. */
const SESSION_ROUTE = '/api/integrationsv2/sessions';
const TEAM_ROUTE = '/api/integrationsv2/team_members';

async function accessToken(key: string): Promise<string> {
  return (await request('/api/integrationsv2/auth/refresh', { body: { api_key: key } })).body.access_token;
}

describe('authentication (spec 5, contract 1)', () => {
  let account: Awaited<ReturnType<typeof createTestAccount>>;
  before(async () => {
    account = await createTestAccount();
  });

  it('session routes accept the API key, with Bearer or bare', async () => {
    assert.equal((await request(SESSION_ROUTE, { auth: account.api_key })).status, 200);
    assert.equal((await request(SESSION_ROUTE, { auth: account.api_key, bare: true })).status, 200);
    assert.equal(
      (await request(SESSION_ROUTE, { auth: `bearer ${account.api_key}`, bare: true })).status,
      200,
    );
  });

  it('team routes accept the vendor key, with Bearer or bare', async () => {
    assert.equal((await request(TEAM_ROUTE, { auth: account.vendor_api_key })).status, 200);
    assert.equal((await request(TEAM_ROUTE, { auth: account.vendor_api_key, bare: true })).status, 200);
  });

  it('each kind of key is refused where the other is required', async () => {
    const onSessions = await request(SESSION_ROUTE, { auth: account.vendor_api_key });
    assert.equal(onSessions.status, 401);
    assert.deepEqual(onSessions.body, UNAUTHORIZED);
    const onTeam = await request(TEAM_ROUTE, { auth: account.api_key });
    assert.equal(onTeam.status, 401);
    assert.deepEqual(onTeam.body, UNAUTHORIZED);
  });

  it('missing, malformed, unknown and tampered credentials are 401 Unauthorized', async () => {
    const tampered = account.api_key.slice(0, -1) + (account.api_key.endsWith('A') ? 'B' : 'A');
    const unknownPrefix = account.api_key.replace(/^nsk_[0-9a-f]{16}/, 'nsk_0000000000000000');
    for (const [label, opts] of [
      ['no header', {}],
      ['empty Bearer', { auth: '', bare: true, headers: { authorization: 'Bearer ' } }],
      ['garbage', { auth: 'not-a-key' }],
      ['tampered secret', { auth: tampered }],
      ['unknown prefix', { auth: unknownPrefix }],
      ['Basic scheme', { auth: `Basic ${account.api_key}`, bare: true }],
      ['forged JWT', { auth: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl' }],
    ] as const) {
      for (const route of [SESSION_ROUTE, TEAM_ROUTE]) {
        const res = await request(route, opts as never);
        assert.equal(res.status, 401, `${label} on ${route}`);
        assert.deepEqual(res.body, UNAUTHORIZED, `${label} on ${route}`);
      }
    }
  });

  it('an access token is accepted wherever the key that minted it is, and nowhere else', async () => {
    const apiToken = await accessToken(account.api_key);
    const vendorToken = await accessToken(account.vendor_api_key);
    assert.equal((await request(SESSION_ROUTE, { auth: apiToken })).status, 200);
    assert.equal((await request(TEAM_ROUTE, { auth: apiToken })).status, 401);
    assert.equal((await request(TEAM_ROUTE, { auth: vendorToken })).status, 200);
    assert.equal((await request(SESSION_ROUTE, { auth: vendorToken })).status, 401);
  });

  it('a token signed with another secret is refused', async () => {
    const { SignJWT } = await import('jose');
    const forged = await new SignJWT({ knd: 'api', kid: 'x' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(account.account_id)
      .setIssuer('notarization-service')
      .setAudience('integrationsv2')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('another-secret-another-secret-another'));
    assert.equal((await request(SESSION_ROUTE, { auth: forged })).status, 401);
  });

  it('rotating a key ends the old key and the tokens minted from it', async () => {
    const own = await createTestAccount();
    const token = await accessToken(own.api_key);
    const newKey = await rotateKey(testEnvironment().runtime.sequelize, own.account_id, 'api');
    assert.equal((await request(SESSION_ROUTE, { auth: own.api_key })).status, 401);
    assert.equal((await request(SESSION_ROUTE, { auth: token })).status, 401);
    assert.equal((await request(SESSION_ROUTE, { auth: newKey })).status, 200);
    // The vendor key is a separate key and keeps working.
    assert.equal((await request(TEAM_ROUTE, { auth: own.vendor_api_key })).status, 200);
  });

  it('keys are stored only as a hash with an indexed public prefix', async () => {
    const [rows] = (await testEnvironment().runtime.sequelize.query(
      "SELECT prefix, encode(secret_hash, 'hex') AS hash FROM api_keys WHERE account_id = $1",
      { bind: [account.account_id] },
    )) as [Array<{ prefix: string; hash: string }>, unknown];
    assert.equal(rows.length, 2);
    for (const row of rows) {
      assert.ok(account.api_key.includes(row.prefix) || account.vendor_api_key.includes(row.prefix));
      assert.equal(row.hash.length, 64);
      assert.ok(!account.api_key.includes(row.hash) && !account.vendor_api_key.includes(row.hash));
    }
  });
});
