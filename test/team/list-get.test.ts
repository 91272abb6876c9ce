import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createTestAccount } from '../support/accounts';
import { request } from '../support/http';
import {
  COMMISSION,
  assertFail,
  assertValidationFailed,
  INVALID_ID,
  invited,
  ISO_DATETIME_RE,
  MEMBER_FIELDS,
  TEAM,
  uniqueEmail,
  UUID_RE,
} from './helpers';

function list(vendorKey: string, query: Record<string, string | number> = {}) {
  const qs = new URLSearchParams(
    Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();
  return request(`${TEAM}${qs ? `?${qs}` : ''}`, { auth: vendorKey });
}

async function listed(vendorKey: string, query: Record<string, string | number> = {}) {
  const res = await list(vendorKey, query);
  assert.equal(res.status, 200, `list ${JSON.stringify(query)}: ${res.text}`);
  assert.deepEqual(Object.keys(res.body).sort(), ['data', 'pagination']);
  assert.deepEqual(Object.keys(res.body.pagination).sort(), ['limit', 'page', 'total_items', 'total_pages']);
  return res.body as { data: any[]; pagination: any };
}

const emailsOf = (data: any[]) => data.map((m) => m.email).sort();

describe('GET /team_members (spec 4.6)', () => {
  it('defaults to page 1, limit 25; items have exactly the spec 4.6 fields', async () => {
    const account = await createTestAccount();
    const members = [
      await invited(account.vendor_api_key, { business_role: 'notary', state: 'TX', county: 'Travis' }),
      await invited(account.vendor_api_key, { business_role: 'pretagger' }),
      await invited(account.vendor_api_key, { business_role: 'admin' }),
    ];
    const body = await listed(account.vendor_api_key);
    assert.deepEqual(body.pagination, { page: 1, limit: 25, total_items: 4, total_pages: 1 });
    assert.equal(body.data.length, 4, 'the owner admin and three invited members');
    for (const item of body.data) {
      assert.deepEqual(Object.keys(item).sort(), MEMBER_FIELDS, `fields of ${JSON.stringify(item)}`);
      assert.match(item.id, UUID_RE);
      assert.match(item.created_at, ISO_DATETIME_RE);
      assert.match(item.updated_at, ISO_DATETIME_RE);
    }
    for (const m of members) {
      const item = body.data.find((d) => d.id === m.id);
      assert.ok(item, `member ${m.email} is listed`);
      assert.deepEqual(item, {
        id: m.id,
        email: m.email,
        business_role: m.business_role,
        onboarding_status: m.onboarding_status,
        name: m.name,
        state: m.state,
        county: m.county,
        created_at: m.created_at,
        updated_at: item.updated_at,
      });
    }
  });

  it('pages: every member exactly once over the pages, the last page partial, beyond the end empty', async () => {
    const account = await createTestAccount();
    for (let i = 0; i < 6; i++) await invited(account.vendor_api_key, { business_role: 'pretagger' });
    // 7 members with the owner admin.
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const body = await listed(account.vendor_api_key, { page, limit: 3 });
      assert.deepEqual(body.pagination, { page, limit: 3, total_items: 7, total_pages: 3 });
      assert.equal(body.data.length, page < 3 ? 3 : 1, `page ${page}`);
      seen.push(...body.data.map((d) => d.id));
    }
    assert.equal(new Set(seen).size, 7, 'no member twice, none missing');
    const all = await listed(account.vendor_api_key);
    assert.deepEqual([...seen].sort(), all.data.map((d) => d.id).sort());

    const beyond = await listed(account.vendor_api_key, { page: 4, limit: 3 });
    assert.deepEqual(beyond, { data: [], pagination: { page: 4, limit: 3, total_items: 7, total_pages: 3 } });
    const far = await listed(account.vendor_api_key, { page: 50 });
    assert.deepEqual(far, { data: [], pagination: { page: 50, limit: 25, total_items: 7, total_pages: 1 } });
  });

  it('limit 100 is allowed; limit 101, limit 0, page 0 and non-numbers are a 422', async () => {
    const account = await createTestAccount();
    const body = await listed(account.vendor_api_key, { limit: 100 });
    assert.deepEqual(body.pagination, { page: 1, limit: 100, total_items: 1, total_pages: 1 });
    for (const [query, param] of [
      [{ limit: 101 }, 'limit'],
      [{ limit: 0 }, 'limit'],
      [{ page: 0 }, 'page'],
      [{ page: -1 }, 'page'],
      [{ page: 'two' }, 'page'],
      [{ limit: 'many' }, 'limit'],
    ] as const) {
      assertValidationFailed(await list(account.vendor_api_key, query), param, JSON.stringify(query));
    }
  });

  it('filters by role', async () => {
    const account = await createTestAccount();
    const notaries = [await invited(account.vendor_api_key), await invited(account.vendor_api_key)];
    const pretagger = await invited(account.vendor_api_key, { business_role: 'pretagger' });
    const n = await listed(account.vendor_api_key, { role: 'notary' });
    assert.deepEqual(emailsOf(n.data), emailsOf(notaries));
    assert.equal(n.pagination.total_items, 2);
    const p = await listed(account.vendor_api_key, { role: 'pretagger' });
    assert.deepEqual(emailsOf(p.data), [pretagger.email]);
    const a = await listed(account.vendor_api_key, { role: 'admin' });
    assert.equal(a.data.length, 1, 'the owner admin');
    assert.equal(a.data[0].business_role, 'admin');
    assertValidationFailed(await list(account.vendor_api_key, { role: 'owner' }), 'role');
  });

  it('filters by e-mail: case-insensitive partial match', async () => {
    const account = await createTestAccount();
    const tag = crypto.randomUUID().slice(0, 8);
    const match = await invited(account.vendor_api_key, { email: `Jane.Doe-${tag}@Example.com` });
    const other = await invited(account.vendor_api_key, { email: `john-${tag}@example.com` });
    for (const fragment of ['jane.doe', 'JANE.DOE', `DOE-${tag}@EXAMPLE`, 'Jane.Doe']) {
      const body = await listed(account.vendor_api_key, { email: fragment });
      assert.deepEqual(emailsOf(body.data), [match.email], `filter ${fragment}`);
      assert.equal(body.pagination.total_items, 1);
    }
    const both = await listed(account.vendor_api_key, { email: tag.toUpperCase() });
    assert.deepEqual(emailsOf(both.data), emailsOf([match, other]));
    const none = await listed(account.vendor_api_key, { email: 'nobody-here' });
    assert.deepEqual(none, { data: [], pagination: { page: 1, limit: 25, total_items: 0, total_pages: 0 } });
  });

  it('the e-mail filter treats `_` and `%` literally (contract §4)', async () => {
    const account = await createTestAccount();
    const tag = crypto.randomUUID().slice(0, 8);
    const underscore = await invited(account.vendor_api_key, { email: `a_b${tag}@x.com` });
    const percent = await invited(account.vendor_api_key, { email: `a%b${tag}@x.com` });
    const plain = await invited(account.vendor_api_key, { email: `axb${tag}@x.com` });

    assert.deepEqual(emailsOf((await listed(account.vendor_api_key, { email: '_' })).data), [
      underscore.email,
    ]);
    assert.deepEqual(emailsOf((await listed(account.vendor_api_key, { email: '%' })).data), [percent.email]);
    assert.deepEqual(emailsOf((await listed(account.vendor_api_key, { email: 'a_b' })).data), [
      underscore.email,
    ]);
    assert.deepEqual(emailsOf((await listed(account.vendor_api_key, { email: 'a%b' })).data), [
      percent.email,
    ]);
    assert.deepEqual(emailsOf((await listed(account.vendor_api_key, { email: 'axb' })).data), [plain.email]);
    // A backslash is literal too.
    assert.deepEqual((await listed(account.vendor_api_key, { email: '\\' })).data, []);
  });

  it("lists only this vendor's linked members; unlinked members disappear", async () => {
    const vendorA = await createTestAccount();
    const vendorB = await createTestAccount();
    const onlyA = await invited(vendorA.vendor_api_key);
    const shared = uniqueEmail('shared');
    const sharedInA = await invited(vendorA.vendor_api_key, { email: shared });
    const sharedInB = await invited(vendorB.vendor_api_key, { email: shared });
    const onlyB = await invited(vendorB.vendor_api_key, { business_role: 'pretagger' });

    const a = await listed(vendorA.vendor_api_key);
    const b = await listed(vendorB.vendor_api_key);
    assert.ok(a.data.some((m) => m.id === onlyA.id));
    assert.ok(a.data.some((m) => m.id === sharedInA.id));
    assert.ok(!a.data.some((m) => m.id === onlyB.id || m.id === sharedInB.id), "A sees none of B's links");
    assert.ok(!b.data.some((m) => m.id === onlyA.id || m.id === sharedInA.id), "B sees none of A's links");
    assert.ok(b.data.some((m) => m.id === sharedInB.id));
    assert.equal(a.pagination.total_items, 3);
    assert.equal(b.pagination.total_items, 3);
    assert.deepEqual(
      (await listed(vendorB.vendor_api_key, { email: onlyA.email })).data,
      [],
      "B cannot find A's member by e-mail",
    );

    const unlinked = await request(`${TEAM}/${sharedInA.id}`, {
      auth: vendorA.vendor_api_key,
      method: 'DELETE',
    });
    assert.equal(unlinked.status, 200, unlinked.text);
    const after = await listed(vendorA.vendor_api_key);
    assert.ok(!after.data.some((m) => m.id === sharedInA.id), 'the unlinked member is gone from the list');
    assert.equal(after.pagination.total_items, 2);
    assert.ok(
      (await listed(vendorB.vendor_api_key)).data.some((m) => m.id === sharedInB.id),
      "B's link to the same user stays",
    );
  });
});

describe('GET /team_members/{id} (spec 4.7)', () => {
  it('answers the member with exactly the spec 4.7 fields', async () => {
    const account = await createTestAccount({ autoOnboarding: true });
    const m = await invited(account.vendor_api_key, {
      ...COMMISSION,
      first_name: 'Grace',
      last_name: 'Hopper',
      state: 'Virginia',
      county: 'Arlington',
    });
    const res = await request(`${TEAM}/${m.id}`, { auth: account.vendor_api_key });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), MEMBER_FIELDS);
    assert.deepEqual(res.body, {
      id: m.id,
      email: m.email,
      business_role: 'notary',
      onboarding_status: 'complete',
      name: 'Grace Hopper',
      state: 'VA',
      county: 'Arlington',
      created_at: m.created_at,
      updated_at: res.body.updated_at,
    });
    assert.match(res.body.updated_at, ISO_DATETIME_RE);
  });

  it('an unknown id is a 404 Team member not found', async () => {
    const account = await createTestAccount();
    const res = await request(`${TEAM}/${crypto.randomUUID()}`, { auth: account.vendor_api_key });
    assertFail(res, 404, 'Team member not found');
  });

  it("another vendor's member is a 404", async () => {
    const vendorA = await createTestAccount();
    const vendorB = await createTestAccount();
    const m = await invited(vendorA.vendor_api_key);
    assertFail(
      await request(`${TEAM}/${m.id}`, { auth: vendorB.vendor_api_key }),
      404,
      'Team member not found',
    );
  });

  it('an unlinked member is a 404', async () => {
    const account = await createTestAccount();
    const m = await invited(account.vendor_api_key);
    const del = await request(`${TEAM}/${m.id}`, { auth: account.vendor_api_key, method: 'DELETE' });
    assert.equal(del.status, 200, del.text);
    assertFail(
      await request(`${TEAM}/${m.id}`, { auth: account.vendor_api_key }),
      404,
      'Team member not found',
    );
  });

  for (const id of [
    'not-a-uuid',
    '12345',
    `${crypto.randomUUID()}x`,
    'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
  ]) {
    it(`a malformed id (${id}) is a 422 INVALID_ID`, async () => {
      const account = await createTestAccount();
      const res = await request(`${TEAM}/${encodeURIComponent(id)}`, { auth: account.vendor_api_key });
      assert.equal(res.status, 422, res.text);
      assert.deepEqual(res.body, INVALID_ID);
    });
  }
});
