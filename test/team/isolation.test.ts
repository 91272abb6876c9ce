import assert from 'node:assert/strict';
import { createTestAccount } from '../support/accounts';
import { request } from '../support/http';
import { createSession, sessionBody } from '../support/sessions';
import { completedSession, downloadAll, pdftotext, removeTempFiles, squash } from '../documents/helpers';
import {
  confirmCommissionFromMail,
  invite,
  inviteBody,
  loginLink,
  loginWithLink,
  memberToken,
  query,
  TEAM,
  uniqueEmail,
} from './helpers';

/**
 * Two vendors and one notary, as an attacker with a second vendor account would try it (issue: tenant
 * isolation). A's view of the person is A's; the commission is the notary's and B cannot change it.
 */
const A_INVITE = {
  first_name: 'Nadia',
  last_name: 'Ashford',
  state: 'TX',
  county: 'Travis',
  commission_number: 'C-A-111',
  commission_expires_on: '2034-05-31',
  vendor_user_id: 'a-crm-1',
  optional_metadata: { a_note: 'only for vendor A' },
};
const B_INVITE = {
  first_name: 'Bianca',
  last_name: 'Bogus',
  state: 'CA',
  county: 'Alameda',
  commission_number: 'C-B-999',
  commission_expires_on: '2039-01-01',
  vendor_user_id: 'b-crm-9',
};
const A_ONLY = ['Nadia', 'Ashford', 'a-crm-1', 'only for vendor A'];
const B_ONLY = ['Bianca', 'Bogus', 'b-crm-9', 'C-B-999', 'Alameda', 'California', 'CALIFORNIA'];

function assertNoneOf(text: string, forbidden: string[], what: string) {
  for (const value of forbidden)
    assert.ok(!text.includes(value), `${what} must not contain ${value}:\n${text}`);
}

async function vendors() {
  const [a, b] = await Promise.all([
    createTestAccount({ autoOnboarding: true }),
    createTestAccount({ autoOnboarding: true }),
  ]);
  return { a, b };
}

async function linked(vendorKey: string, email: string, fields: Record<string, unknown>) {
  const res = await invite(vendorKey, inviteBody({ email, ...fields }));
  assert.equal(res.status, 201, res.text);
  return res;
}

function unlink(vendorKey: string, memberId: string) {
  return request(`${TEAM}/${memberId}`, { auth: vendorKey, method: 'DELETE' });
}

async function emailOf(vendorKey: string, memberId: string) {
  return (await request(`${TEAM}/${memberId}`, { auth: vendorKey })).body.email;
}

/**
 * What vendor `key` can see of its member: GET and the list (`text`), and the seal, which is the
 * notary's own and states their commission facts (name as commissioned included) to anyone.
 */
async function vendorView(vendorKey: string, memberId: string) {
  const got = await request(`${TEAM}/${memberId}`, { auth: vendorKey });
  assert.equal(got.status, 200, got.text);
  const list = await request(`${TEAM}?limit=100`, { auth: vendorKey });
  const svg = await request(`${TEAM}/${memberId}/seal.svg`, { auth: vendorKey });
  return { member: got.body, text: `${got.text}\n${list.text}`, svg: svg.text };
}

describe('tenant isolation: two vendors, one notary', function () {
  this.timeout(180_000);
  after(removeTempFiles);

  it("B's invite links A's notary but changes nothing of A's, and B receives only the public commission facts", async () => {
    const { a, b } = await vendors();
    const email = uniqueEmail('shared-notary');
    const inA = (await linked(a.vendor_api_key, email, A_INVITE)).body.user_data;
    const beforeSeal = (await vendorView(a.vendor_api_key, inA.id)).svg;

    const inB = await linked(b.vendor_api_key, email, B_INVITE);
    assert.deepEqual(
      inB.body.ignored_fields,
      ['state', 'county', 'commission_number', 'commission_expires_on'],
      'B is told its commission fields were ignored',
    );
    const b_data = inB.body.user_data;
    assert.equal(b_data.name, 'Bianca Bogus', "B sees the name B gave, not A's");
    assert.equal(b_data.vendor_user_id, 'b-crm-9');
    assert.deepEqual(
      [b_data.state, b_data.county, b_data.commission_number, b_data.onboarding_status],
      ['TX', 'Travis', 'C-A-111', 'complete'],
      "the notary's public commission facts, as any certificate shows them",
    );
    assertNoneOf(inB.text, A_ONLY, "B's invite answer");
    const viewB = await vendorView(b.vendor_api_key, b_data.id);
    assertNoneOf(viewB.text, A_ONLY, "B's view");
    assert.equal(viewB.svg, beforeSeal, 'B gets the notary’s one seal, as onboarded');

    const viewA = await vendorView(a.vendor_api_key, inA.id);
    assert.equal(viewA.member.name, 'Nadia Ashford');
    assert.deepEqual([viewA.member.state, viewA.member.county], ['TX', 'Travis']);
    assertNoneOf(`${viewA.text}${viewA.svg}`, B_ONLY, "A's view");
    assert.equal(viewA.svg, beforeSeal, "A's seal is unchanged");
    assert.ok(viewA.svg.includes('C-A-111') && viewA.svg.includes('STATE OF TEXAS'), viewA.svg);
    const [link] = await query('SELECT optional_metadata FROM account_members WHERE id = $1', [inA.id]);
    assert.deepEqual(link.optional_metadata, A_INVITE.optional_metadata, "A's metadata is A's");

    // A's next notarized document states A's commission, and nothing B sent.
    const done = await completedSession(a.api_key, await sessionBody({ session_notary_email: email }));
    const { files } = await downloadAll(a.api_key, done.id);
    const certificate = squash(await pdftotext(files[0].bytes));
    assert.match(certificate, /Venue: State of Texas, County of Travis/);
    assert.match(certificate, /Notary public: Nadia Ashford/);
    assert.match(certificate, /Commission number: C-A-111/);
    assertNoneOf(certificate, [...B_ONLY, 'not on file'], "A's certificate");
  });

  it('A links, B links, B unlinks: A keeps the e-mail, the role, login links and sessions; then A unlinks', async () => {
    const { a, b } = await vendors();
    const email = uniqueEmail('b-unlinks-first');
    const inA = (await linked(a.vendor_api_key, email, A_INVITE)).body.user_data;
    const inB = (await linked(b.vendor_api_key, email, B_INVITE)).body.user_data;
    const tokenA = await memberToken(a.vendor_api_key, email);

    assert.equal((await unlink(b.vendor_api_key, inB.id)).status, 200);
    assert.equal(await emailOf(a.vendor_api_key, inA.id), email, "A's member keeps the e-mail");
    const stillA = await request(`${TEAM}/${inA.id}`, { auth: a.vendor_api_key });
    assert.equal(stillA.body.business_role, 'notary');
    const created = await createSession(a.api_key, await sessionBody({ session_notary_email: email }));
    assert.equal(created.status, 200, `A can still name the notary: ${created.text}`);
    const link = await loginLink(a.vendor_api_key, email);
    assert.equal((await loginWithLink(link.id, link.key)).status, 200, "A's login link works");
    const cancelled = await request(`/api/integrationsv2/sessions/${created.body.bn_session_id}/cancel`, {
      auth: tokenA,
      body: {},
    });
    assert.equal(cancelled.status, 200, `A's member token still acts: ${cancelled.text}`);
    assert.equal((await request(`${TEAM}/${inB.id}`, { auth: b.vendor_api_key })).status, 404);

    // The last link gone, the child account is released and its address is free again.
    assert.equal((await unlink(a.vendor_api_key, inA.id)).status, 200);
    const users = await query('SELECT count(*)::int AS n FROM users WHERE lower(email) = lower($1)', [email]);
    assert.equal(users[0].n, 0, 'the address was released with the last link');
  });

  it('A links, B links, A unlinks: B keeps everything; then B unlinks', async () => {
    const { a, b } = await vendors();
    const email = uniqueEmail('a-unlinks-first');
    const inA = (await linked(a.vendor_api_key, email, A_INVITE)).body.user_data;
    const inB = (await linked(b.vendor_api_key, email, B_INVITE)).body.user_data;

    assert.equal((await unlink(a.vendor_api_key, inA.id)).status, 200);
    assert.equal(await emailOf(b.vendor_api_key, inB.id), email, "B's member keeps the e-mail");
    const viewB = await vendorView(b.vendor_api_key, inB.id);
    assert.equal(viewB.member.name, 'Bianca Bogus');
    assert.equal(
      viewB.member.onboarding_status,
      'complete',
      'the commission outlives the vendor that wrote it',
    );
    const created = await createSession(b.api_key, await sessionBody({ session_notary_email: email }));
    assert.equal(created.status, 200, `B can still name the notary: ${created.text}`);
    const link = await loginLink(b.vendor_api_key, email);
    assert.equal((await loginWithLink(link.id, link.key)).status, 200);

    assert.equal((await unlink(b.vendor_api_key, inB.id)).status, 200);
    const users = await query('SELECT count(*)::int AS n FROM users WHERE lower(email) = lower($1)', [email]);
    assert.equal(users[0].n, 0, 'the address was released with the last link');
  });

  it('A links and unlinks, then B invites the address: a new person, with nothing of A', async () => {
    const { a, b } = await vendors();
    const email = uniqueEmail('released');
    const inA = (await linked(a.vendor_api_key, email, A_INVITE)).body.user_data;
    assert.equal((await unlink(a.vendor_api_key, inA.id)).status, 200);

    const inB = await linked(b.vendor_api_key, email, B_INVITE);
    assert.deepEqual(inB.body.ignored_fields, [], 'B onboards the new person');
    assertNoneOf(inB.text, [...A_ONLY, 'C-A-111'], "B's invite answer");
    assert.equal(inB.body.user_data.commission_number, 'C-B-999');
  });

  it('a pending notary is refused until they onboard themself; a later vendor cannot replace that commission', async () => {
    const pendingVendor = await createTestAccount();
    const b = await createTestAccount({ autoOnboarding: true });
    const email = uniqueEmail('pending');
    const inA = await linked(pendingVendor.vendor_api_key, email, A_INVITE);
    assert.equal(inA.body.user_data.onboarding_status, 'pending');
    assert.equal(inA.body.user_data.state, null, 'no commission without onboarding');
    assert.deepEqual(inA.body.ignored_fields, [
      'state',
      'county',
      'commission_number',
      'commission_expires_on',
    ]);
    const refused = await createSession(
      pendingVendor.api_key,
      await sessionBody({ session_notary_email: email }),
    );
    assert.equal(refused.status, 403);
    assert.equal(refused.body.response_message, 'Invalid session_notary_email');

    const token = await memberToken(pendingVendor.vendor_api_key, email);
    const onboarded = await request('/api/integrationsv2/notary/onboarding', {
      auth: token,
      body: {
        state: 'Texas',
        county: 'Hays',
        commission_number: 'TX-SELF-1',
        commission_expires_on: '2033-03-03',
      },
    });
    assert.equal(onboarded.status, 202, onboarded.text);
    const stillPending = await request(`${TEAM}/${inA.body.user_data.id}`, {
      auth: pendingVendor.vendor_api_key,
    });
    assert.equal(
      stillPending.body.onboarding_status,
      'pending',
      'nothing changes before the notary confirms',
    );
    const confirmed = await confirmCommissionFromMail(email);
    assert.equal(confirmed.status, 200, confirmed.text);
    assert.equal(confirmed.body.commission.state, 'TX');
    const member = await request(`${TEAM}/${inA.body.user_data.id}`, { auth: pendingVendor.vendor_api_key });
    assert.equal(member.body.onboarding_status, 'complete');
    assert.equal(member.body.state, 'TX');
    const seal = await request(`${TEAM}/${inA.body.user_data.id}/seal.svg`, {
      auth: pendingVendor.vendor_api_key,
    });
    assert.ok(seal.text.includes('TX-SELF-1') && seal.text.includes('Nadia Ashford'), seal.text);
    const named = await createSession(
      pendingVendor.api_key,
      await sessionBody({ session_notary_email: email }),
    );
    assert.equal(named.status, 200, named.text);

    // A later vendor with automatic onboarding links the notary and cannot replace that commission.
    const inB = await linked(b.vendor_api_key, email, B_INVITE);
    assert.equal(inB.body.user_data.commission_number, 'TX-SELF-1');
    assert.equal(inB.body.ignored_fields.length, 4);

    for (const credential of [pendingVendor.vendor_api_key, pendingVendor.api_key]) {
      const res = await request('/api/integrationsv2/notary/onboarding', {
        auth: credential,
        body: { state: 'CA', county: 'X', commission_number: 'X', commission_expires_on: '2030-01-01' },
      });
      assert.equal(res.status, 401, 'only the notary themself onboards');
    }
    const pretagger = await linked(pendingVendor.vendor_api_key, uniqueEmail('pretagger'), {
      business_role: 'pretagger',
    });
    const pretaggerToken = await memberToken(pendingVendor.vendor_api_key, pretagger.body.user_data.email);
    const notNotary = await request('/api/integrationsv2/notary/onboarding', {
      auth: pretaggerToken,
      body: { state: 'CA', county: 'X', commission_number: 'X', commission_expires_on: '2030-01-01' },
    });
    assert.equal(notNotary.status, 403, notNotary.text);
  });
});
