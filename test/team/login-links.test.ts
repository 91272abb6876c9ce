import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { LOGIN_LINK_CLEANUP_SCHEDULE } from '../../src/temporal/schedules';
import { createTestAccount } from '../support/accounts';
import { testEnvironment } from '../support/environment';
import { request } from '../support/http';
import { action, createSession, sessionBody, tokenOf, waitForSession } from '../support/sessions';
import {
  assertFail,
  COMMISSION,
  fetchJson,
  invited,
  LOGIN_LINKS,
  loginLink,
  loginWithLink,
  MEMBER_FIELDS,
  memberToken,
  query,
  secondApp,
  TEAM,
  uniqueEmail,
  UUID_RE,
} from './helpers';
import { eventually, letTimePass } from '../support/eventually';

const UNAUTHORIZED = { response: 'Fail', response_message: 'Unauthorized' };

async function linkRow(id: string) {
  return (await query('SELECT * FROM login_links WHERE id = $1', [id]))[0];
}

describe('POST /login_links (spec 2.9, 4.9)', () => {
  it('answers {success, login_link, expires_in: 43200} with FRONT_URL/auto/{id}?key={key}', async () => {
    const account = await createTestAccount();
    const m = await invited(account.vendor_api_key);
    const res = await request(LOGIN_LINKS, { auth: account.vendor_api_key, body: { email: m.email } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['expires_in', 'login_link', 'success']);
    assert.equal(res.body.success, true);
    assert.equal(res.body.expires_in, 43200);

    const frontUrl = testEnvironment().config.frontUrl;
    assert.equal(frontUrl, 'https://app.notary.test');
    const match = /^https:\/\/app\.notary\.test\/auto\/([^/?#]+)\?key=([^&#]+)$/.exec(res.body.login_link);
    assert.ok(match, `form {front_url}/auto/{id}?key={key}: ${res.body.login_link}`);
    const [, id, rawKey] = match;
    assert.match(id, UUID_RE);
    // The query value is URL-encoded: only unreserved characters and %-escapes appear.
    assert.match(rawKey, /^(?:[A-Za-z0-9\-._~]|%[0-9A-F]{2})+$/);
    const key = decodeURIComponent(rawKey);
    assert.equal(encodeURIComponent(key), rawKey);
    assert.ok(key.length >= 16, 'the key is long enough to be unguessable');

    // The key is stored hashed only.
    const row = await linkRow(id);
    assert.ok(row, 'the link is stored');
    assert.equal(row.member_id, m.id);
    assert.equal(row.account_id, account.account_id);
    const stored = Buffer.from(row.key_hash);
    assert.ok(!stored.equals(Buffer.from(key)), 'key_hash is not the key');
    for (const encoding of ['utf8', 'hex', 'base64', 'base64url'] as const) {
      assert.ok(!stored.toString(encoding).includes(key), `key_hash (${encoding}) does not contain the key`);
    }
    const expiresIn = (new Date(row.expires_at).getTime() - Date.now()) / 1000;
    assert.ok(Math.abs(expiresIn - 43200) < 120, `expires in 12 hours (${expiresIn} s)`);
  });

  it('every link is new: two links of one member have different ids and keys', async () => {
    const account = await createTestAccount();
    const m = await invited(account.vendor_api_key);
    const a = await loginLink(account.vendor_api_key, m.email);
    const b = await loginLink(account.vendor_api_key, m.email);
    assert.notEqual(a.id, b.id);
    assert.notEqual(a.key, b.key);
  });

  it("another vendor's member, an unknown e-mail or an unlinked member is a 404 User not found", async () => {
    const vendorA = await createTestAccount();
    const vendorB = await createTestAccount();
    const mA = await invited(vendorA.vendor_api_key);
    const gone = await invited(vendorA.vendor_api_key);
    assert.equal(
      (await request(`${TEAM}/${gone.id}`, { auth: vendorA.vendor_api_key, method: 'DELETE' })).status,
      200,
    );
    for (const [vendor, email, what] of [
      [vendorB, mA.email, "another vendor's member"],
      [vendorA, uniqueEmail('nobody'), 'an unknown e-mail'],
      [vendorA, gone.email, 'an unlinked member'],
    ] as const) {
      const res = await request(LOGIN_LINKS, { auth: vendor.vendor_api_key, body: { email } });
      assertFail(res, 404, 'User not found', what);
    }
  });
});

describe('POST /auth/login_link (contract §4)', () => {
  it('exchanges a link for {access_token, token_type, expires_in, sign_in_ends_at, team_member}, repeatedly', async () => {
    const account = await createTestAccount();
    const m = await invited(account.vendor_api_key, { first_name: 'Lena', last_name: 'Link' });
    const link = await loginLink(account.vendor_api_key, m.email);
    const tokens: string[] = [];
    for (let use = 1; use <= 2; use++) {
      const res = await loginWithLink(link.id, link.key);
      assert.equal(res.status, 200, `use ${use}: ${res.text}`);
      assert.deepEqual(Object.keys(res.body).sort(), [
        'access_token',
        'expires_in',
        'sign_in_ends_at',
        'team_member',
        'token_type',
      ]);
      const day = Date.parse(res.body.sign_in_ends_at) - Date.now();
      assert.ok(day > 11.9 * 3600_000 && day <= 12 * 3600_000, 'a sign-in lasts a working day');
      assert.equal(res.body.token_type, 'Bearer');
      assert.ok(typeof res.body.access_token === 'string' && res.body.access_token.length > 20);
      assert.ok(Number.isInteger(res.body.expires_in) && res.body.expires_in > 0);
      assert.deepEqual(Object.keys(res.body.team_member).sort(), MEMBER_FIELDS);
      assert.equal(res.body.team_member.id, m.id);
      assert.equal(res.body.team_member.email, m.email);
      assert.equal(res.body.team_member.name, 'Lena Link');
      assert.equal(res.body.team_member.business_role, 'notary');
      tokens.push(res.body.access_token);
    }
    assert.ok(await linkRow(link.id), 'the link is still there after use');
  });

  it('a wrong key, an unknown id or a malformed id is a 401 Unauthorized', async () => {
    const account = await createTestAccount();
    const m = await invited(account.vendor_api_key);
    const link = await loginLink(account.vendor_api_key, m.email);
    const other = await loginLink(account.vendor_api_key, m.email);
    for (const [id, key, what] of [
      [link.id, `${link.key}x`, 'wrong key'],
      [link.id, other.key, "another link's key"],
      [link.id, 'x', 'short key'],
      [crypto.randomUUID(), link.key, 'unknown id'],
      ['not-a-uuid', link.key, 'malformed id'],
    ]) {
      const res = await loginWithLink(id, key);
      assert.equal(res.status, 401, `${what}: ${res.text}`);
      assert.deepEqual(res.body, UNAUTHORIZED, what);
    }
    // The link itself still works.
    assert.equal((await loginWithLink(link.id, link.key)).status, 200);
  });

  it('an expired link is a 401 and is deleted', async () => {
    const account = await createTestAccount();
    const m = await invited(account.vendor_api_key);
    const shortLived = await secondApp({ loginLinkLifetimeSeconds: 1 });
    try {
      const link = await loginLink(account.vendor_api_key, m.email, shortLived.url);
      assert.equal(link.body.expires_in, 1);
      const fresh = await fetchJson(`${shortLived.url}/api/integrationsv2/auth/login_link`, {
        body: { login_link_id: link.id, key: link.key },
      });
      assert.equal(fresh.status, 200, `usable before it expires: ${fresh.text}`);
      await letTimePass(1500);
      const res = await loginWithLink(link.id, link.key);
      assert.equal(res.status, 401, res.text);
      assert.deepEqual(res.body, UNAUTHORIZED);
      assert.equal(await linkRow(link.id), undefined, 'the expired link row is deleted');
    } finally {
      shortLived.close();
    }
  });

  it(`the ${LOGIN_LINK_CLEANUP_SCHEDULE} Schedule deletes expired links and keeps live ones`, async () => {
    const client = testEnvironment().runtime.temporal.client;
    const handle = client.schedule.getHandle('login-link-cleanup');
    const description = await handle.describe();
    assert.equal(description.scheduleId, 'login-link-cleanup');
    assert.equal(description.action.type, 'startWorkflow');
    assert.equal((description.action as any).workflowType, 'loginLinkCleanupWorkflow');

    const account = await createTestAccount();
    const m = await invited(account.vendor_api_key);
    const live = await loginLink(account.vendor_api_key, m.email);
    const shortLived = await secondApp({ loginLinkLifetimeSeconds: 1 });
    let expired: Awaited<ReturnType<typeof loginLink>>;
    try {
      expired = await loginLink(account.vendor_api_key, m.email, shortLived.url);
    } finally {
      shortLived.close();
    }
    await letTimePass(1200);
    assert.ok(await linkRow(expired.id), 'the expired link is still stored until the job runs');

    await handle.trigger();
    let lastTrigger = Date.now();
    await eventually(
      async () => {
        if (!(await linkRow(expired.id))) return true;
        // A run skipped by the overlap policy: ask again.
        if (Date.now() - lastTrigger > 3000) {
          await handle.trigger();
          lastTrigger = Date.now();
        }
        return false;
      },
      (deleted: boolean) => deleted,
      'the cleanup run deletes the expired link',
    );
    assert.ok(await linkRow(live.id), 'a live link is kept');
    assert.equal((await loginWithLink(live.id, live.key)).status, 200);
    const after = await handle.describe();
    assert.ok(after.info.recentActions.length > 0, 'the Schedule recorded the run');
  });
});

describe("team members' tokens on notary actions (contract §2, §4)", function () {
  this.timeout(120_000);

  async function team() {
    const account = await createTestAccount({ autoOnboarding: true });
    const notary = await invited(account.vendor_api_key, {
      ...COMMISSION,
      first_name: 'Nadia',
      last_name: 'Assigned',
    });
    const otherNotary = await invited(account.vendor_api_key, {
      ...COMMISSION,
      first_name: 'Otto',
      last_name: 'Other',
    });
    const pretagger = await invited(account.vendor_api_key, { business_role: 'pretagger' });
    const admin = await invited(account.vendor_api_key, { business_role: 'admin' });
    const [notaryToken, otherNotaryToken, pretaggerToken, adminToken] = await Promise.all(
      [notary, otherNotary, pretagger, admin].map((m) => memberToken(account.vendor_api_key, m.email)),
    );
    return {
      account,
      notary,
      otherNotary,
      pretagger,
      admin,
      notaryToken,
      otherNotaryToken,
      pretaggerToken,
      adminToken,
    };
  }

  async function readySession(apiKey: string, notaryEmail: string, overrides: Record<string, unknown> = {}) {
    const res = await createSession(
      apiKey,
      await sessionBody({ session_notary_email: notaryEmail, ...overrides }),
    );
    assert.equal(res.status, 200, res.text);
    if (!overrides.send_invite_after_pretagging) {
      await waitForSession(apiKey, res.body.bn_session_id, (s) => s.status === 'ready');
    }
    return res.body;
  }

  async function join(signingUrl: string) {
    const res = await request(`/sign/${tokenOf(signingUrl)}/join`, {
      method: 'POST',
      headers: { accept: 'application/json' },
    });
    assert.equal(res.status, 200, `join: ${res.text}`);
  }

  it('the assigned notary starts and completes; another notary of the vendor gets a 403', async () => {
    const t = await team();
    const session = await readySession(t.account.api_key, t.notary.email);
    await join(session.bn_signing_url);

    const refused = await action(t.otherNotaryToken, session.bn_session_id, 'start');
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.response, 'Fail');

    const started = await action(t.notaryToken, session.bn_session_id, 'start');
    assert.equal(started.status, 200, started.text);
    assert.equal(started.body.response, 'Pass');
    assert.equal(started.body.status, 'in_progress');
    assert.equal((await action(t.otherNotaryToken, session.bn_session_id, 'complete')).status, 403);
    assert.equal((await action(t.otherNotaryToken, session.bn_session_id, 'cancel')).status, 403);

    const completed = await action(t.notaryToken, session.bn_session_id, 'complete');
    assert.equal(completed.status, 200, completed.text);
    assert.equal(completed.body.status, 'completed');
    await waitForSession(t.account.api_key, session.bn_session_id, (s) => s.status === 'completed');
  });

  it('a pretagger may mark pretagged but not start (403)', async () => {
    const t = await team();
    const session = await readySession(t.account.api_key, t.notary.email, {
      send_invite_after_pretagging: true,
    });
    await waitForSession(t.account.api_key, session.bn_session_id, (s) => s.status === 'awaiting_pretag');

    for (const name of ['start', 'complete', 'cancel']) {
      const refused = await action(t.pretaggerToken, session.bn_session_id, name);
      assert.equal(refused.status, 403, `${name}: ${refused.text}`);
      assert.equal(refused.body.response, 'Fail');
    }
    const pretagged = await action(t.pretaggerToken, session.bn_session_id, 'pretagged');
    assert.equal(pretagged.status, 200, pretagged.text);
    assert.equal(pretagged.body.response, 'Pass');
    await waitForSession(t.account.api_key, session.bn_session_id, (s) => s.status === 'ready');

    await join(session.bn_signing_url);
    const start = await action(t.pretaggerToken, session.bn_session_id, 'start');
    assert.equal(start.status, 403, `start after pretagging: ${start.text}`);
  });

  it("an admin's token cancels any of the vendor's sessions", async () => {
    const t = await team();
    const assigned = await readySession(t.account.api_key, t.notary.email);
    const cancelled = await action(t.adminToken, assigned.bn_session_id, 'cancel');
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.status, 'cancelled');

    // A session with an on-demand notary (none of the vendor's notaries assigned).
    const onDemand = await createSession(t.account.api_key, await sessionBody());
    assert.equal(onDemand.status, 200, onDemand.text);
    const cancelled2 = await action(t.adminToken, onDemand.body.bn_session_id, 'cancel');
    assert.equal(cancelled2.status, 200, cancelled2.text);
    await waitForSession(t.account.api_key, onDemand.body.bn_session_id, (s) => s.status === 'cancelled');
  });

  it("vendor A's member token on vendor B's session is a 404", async () => {
    const a = await team();
    const vendorB = await createTestAccount({ autoOnboarding: true });
    const bNotary = await invited(vendorB.vendor_api_key, COMMISSION);
    const session = await readySession(vendorB.api_key, bNotary.email);
    for (const token of [a.adminToken, a.notaryToken, a.pretaggerToken]) {
      for (const name of ['cancel', 'pretagged']) {
        const res = await action(token, session.bn_session_id, name);
        assert.equal(res.status, 404, `${name}: ${res.text}`);
        assert.deepEqual(res.body, { response: 'Fail', response_message: 'Session not found' });
      }
    }
    const state = await waitForSession(vendorB.api_key, session.bn_session_id, () => true);
    assert.equal(state.status, 'ready', 'nothing changed');
  });

  it("after unlinking, the member's token is a 401", async () => {
    const t = await team();
    const session = await readySession(t.account.api_key, t.notary.email);
    const del = await request(`${TEAM}/${t.admin.id}`, { auth: t.account.vendor_api_key, method: 'DELETE' });
    assert.equal(del.status, 200, del.text);
    const res = await action(t.adminToken, session.bn_session_id, 'cancel');
    assert.equal(res.status, 401, res.text);
    assert.deepEqual(res.body, UNAUTHORIZED);

    const del2 = await request(`${TEAM}/${t.notary.id}`, {
      auth: t.account.vendor_api_key,
      method: 'DELETE',
    });
    assert.equal(del2.status, 200, del2.text);
    const start = await action(t.notaryToken, session.bn_session_id, 'start');
    assert.equal(start.status, 401, start.text);
  });
});

describe('key kinds (contract §1)', () => {
  it('the vendor key is refused (401) on session routes', async () => {
    const account = await createTestAccount({ autoOnboarding: true });
    const notary = await invited(account.vendor_api_key, COMMISSION);
    const created = await createSession(
      account.vendor_api_key,
      await sessionBody({ session_notary_email: notary.email }),
    );
    assert.equal(created.status, 401, created.text);
    assert.deepEqual(created.body, UNAUTHORIZED);
    const real = await createSession(
      account.api_key,
      await sessionBody({ session_notary_email: notary.email }),
    );
    assert.equal(real.status, 200, real.text);
    for (const res of [
      await request(`/api/integrationsv2/sessions/${real.body.bn_session_id}`, {
        auth: account.vendor_api_key,
      }),
      await action(account.vendor_api_key, real.body.bn_session_id, 'cancel'),
      await action(account.vendor_api_key, real.body.bn_session_id, 'pretagged'),
    ]) {
      assert.equal(res.status, 401, res.text);
      assert.deepEqual(res.body, UNAUTHORIZED);
    }
  });

  it('the API key is refused (401) on team and login-link routes', async () => {
    const account = await createTestAccount();
    const m = await invited(account.vendor_api_key);
    for (const res of [
      await request(TEAM, { auth: account.api_key }),
      await request(`${TEAM}/${m.id}`, { auth: account.api_key }),
      await request(`${TEAM}/invite`, {
        auth: account.api_key,
        body: { email: uniqueEmail(), business_role: 'notary', first_name: 'A', last_name: 'B' },
      }),
      await request(TEAM, {
        auth: account.api_key,
        body: { email: uniqueEmail(), business_role: 'notary', first_name: 'A', last_name: 'B' },
      }),
      await request(`${TEAM}/${m.id}`, { auth: account.api_key, method: 'DELETE' }),
      await request(LOGIN_LINKS, { auth: account.api_key, body: { email: m.email } }),
    ]) {
      assert.equal(res.status, 401, res.text);
      assert.deepEqual(res.body, UNAUTHORIZED);
    }
    const still = await request(`${TEAM}/${m.id}`, { auth: account.vendor_api_key });
    assert.equal(still.status, 200, 'the member was not unlinked');
  });

  it("a team member's token is refused on team routes and on session creation", async () => {
    const account = await createTestAccount();
    const admin = await invited(account.vendor_api_key, { business_role: 'admin' });
    const token = await memberToken(account.vendor_api_key, admin.email);
    assert.equal((await request(TEAM, { auth: token })).status, 401);
    assert.equal((await createSession(token, await sessionBody())).status, 401);
  });
});
