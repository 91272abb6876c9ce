import assert from 'node:assert/strict';
import bcrypt from 'bcryptjs';
import { createTestAccount } from '../support/accounts';
import { testEnvironment } from '../support/environment';
import { request } from '../support/http';
import {
  assertFail,
  assertValidationFailed,
  COMMISSION,
  decodePng,
  INVITE_FIELDS,
  invite,
  inviteBody,
  invited,
  ISO_DATETIME_RE,
  query,
  TEAM,
  uniqueEmail,
  UUID_RE,
} from './helpers';

const ONBOARDING_MESSAGE =
  'Missing mandatory fields for notary onboarding: state, county, commission_number, commission_expires_on';

async function userByEmail(email: string) {
  const rows = await query('SELECT * FROM users WHERE lower(email) = lower($1)', [email]);
  return rows;
}

async function seal(vendorKey: string, memberId: string, format: 'png' | 'svg') {
  const res = await fetch(`${testEnvironment().apiUrl}${TEAM}/${memberId}/seal.${format}`, {
    headers: { authorization: `Bearer ${vendorKey}` },
  });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

describe('POST /team_members/invite (spec 4.5)', () => {
  describe('new users', () => {
    for (const path of [`${TEAM}/invite`, TEAM]) {
      it(`${path} creates and links a new user: 201 with every spec 4.5 field`, async () => {
        const account = await createTestAccount({ autoOnboarding: true });
        const body = inviteBody({
          first_name: 'Nina',
          last_name: 'Okafor',
          vendor_user_id: 'crm-4711',
          ...COMMISSION,
        });
        const before = Date.now();
        const res = await invite(account.vendor_api_key, body, path);
        assert.equal(res.status, 201, res.text);
        assert.equal(res.body.success, true);
        assert.deepEqual(Object.keys(res.body).sort(), ['ignored_fields', 'success', 'user_data']);
        assert.deepEqual(res.body.ignored_fields, [], 'a first onboarding applies every field');
        const u = res.body.user_data;
        assert.deepEqual(Object.keys(u).sort(), INVITE_FIELDS, `user_data fields: ${res.text}`);
        assert.match(u.id, UUID_RE);
        assert.equal(u.email, body.email);
        assert.equal(u.name, 'Nina Okafor');
        assert.equal(u.first_name, 'Nina');
        assert.equal(u.last_name, 'Okafor');
        assert.equal(u.business_role, 'notary');
        assert.equal(u.state, 'TX');
        assert.equal(u.county, 'Travis');
        assert.equal(u.commission_number, 'TX-123456');
        assert.match(
          u.commission_expires_on,
          ISO_DATETIME_RE,
          'commission_expires_on is an ISO 8601 datetime',
        );
        assert.equal(new Date(u.commission_expires_on).toISOString().slice(0, 10), '2030-06-30');
        assert.equal(typeof u.onboarding_status, 'string');
        assert.equal(u.vendor_user_id, 'crm-4711');
        for (const field of ['created_at', 'updated_at']) {
          assert.match(u[field], ISO_DATETIME_RE, `${field} is ISO 8601`);
          assert.ok(Math.abs(Date.parse(u[field]) - before) < 60_000, `${field} is now`);
        }
        // The member is really there, and is this vendor's.
        const got = await request(`${TEAM}/${u.id}`, { auth: account.vendor_api_key });
        assert.equal(got.status, 200, got.text);
        assert.equal(got.body.email, body.email);
        const [link] = await query(
          'SELECT account_id, vendor_user_id, deleted_at FROM account_members WHERE id = $1',
          [u.id],
        );
        assert.equal(link.account_id, account.account_id);
        assert.equal(link.vendor_user_id, 'crm-4711');
        assert.equal(link.deleted_at, null);
      });
    }

    it('pretagger and admin roles are accepted; other roles are a 422 naming business_role', async () => {
      const account = await createTestAccount();
      for (const role of ['pretagger', 'admin']) {
        const u = await invited(account.vendor_api_key, { business_role: role });
        assert.equal(u.business_role, role);
        assert.equal(u.commission_number, null);
        assert.equal(u.commission_expires_on, null);
        assert.equal(u.vendor_user_id, null);
      }
      for (const role of ['owner', 'Notary', '', 42]) {
        const res = await invite(account.vendor_api_key, inviteBody({ business_role: role }));
        assertValidationFailed(res, 'business_role', `business_role ${JSON.stringify(role)}`);
      }
    });
  });

  describe('existing users', () => {
    it('links a user of another vendor here too (201), and the same user stays one user', async () => {
      const vendorA = await createTestAccount();
      const vendorB = await createTestAccount();
      const email = uniqueEmail('shared');
      const inA = await invited(vendorA.vendor_api_key, { email });
      const res = await invite(vendorB.vendor_api_key, inviteBody({ email }));
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.success, true);
      assert.deepEqual(Object.keys(res.body.user_data).sort(), INVITE_FIELDS);
      assert.equal(res.body.user_data.email, email);
      assert.notEqual(res.body.user_data.id, inA.id, 'a team member id is per vendor link');
      const users = await userByEmail(email);
      assert.equal(users.length, 1);
      const links = await query(
        'SELECT account_id FROM account_members WHERE user_id = $1 AND deleted_at IS NULL ORDER BY created_at',
        [users[0].id],
      );
      assert.deepEqual(
        links.map((l) => l.account_id),
        [vendorA.account_id, vendorB.account_id],
      );
      for (const [vendor, id] of [
        [vendorA, inA.id],
        [vendorB, res.body.user_data.id],
      ]) {
        const got = await request(`${TEAM}/${id}`, { auth: vendor.vendor_api_key });
        assert.equal(got.status, 200, got.text);
      }
    });

    it('an already linked user answers 200 {success, already_linked, team_member_id}, matching e-mail case-insensitively', async () => {
      const account = await createTestAccount();
      const email = uniqueEmail('Mixed.Case', 'Example.COM');
      const first = await invited(account.vendor_api_key, { email });
      for (const variant of [email, email.toLowerCase(), email.toUpperCase()]) {
        for (const path of [`${TEAM}/invite`, TEAM]) {
          const res = await invite(account.vendor_api_key, inviteBody({ email: variant }), path);
          assert.equal(res.status, 200, `${variant} via ${path}: ${res.text}`);
          assert.deepEqual(res.body, { success: true, already_linked: true, team_member_id: first.id });
        }
      }
      assert.equal((await userByEmail(email)).length, 1);
      const links = await query(
        'SELECT count(*)::int AS n FROM account_members WHERE account_id = $1 AND deleted_at IS NULL',
        [account.account_id],
      );
      assert.equal(links[0].n, 2, 'the owner admin and the one member');
    });

    it('another vendor inviting the e-mail in another case links the same user', async () => {
      const vendorA = await createTestAccount();
      const vendorB = await createTestAccount();
      const email = uniqueEmail('casey');
      await invited(vendorA.vendor_api_key, { email });
      const res = await invite(vendorB.vendor_api_key, inviteBody({ email: email.toUpperCase() }));
      assert.equal(res.status, 201, res.text);
      assert.equal((await userByEmail(email)).length, 1, 'no second user for the upper-cased e-mail');
    });
  });

  describe('password', () => {
    it('a bcrypt cost-10 hash is accepted and stored as given', async () => {
      const account = await createTestAccount();
      const hash = bcrypt.hashSync('correct horse battery staple', 10);
      const u = await invited(account.vendor_api_key, { password: hash });
      const [user] = await userByEmail(u.email);
      assert.equal(user.password_hash, hash);
      assert.ok(bcrypt.compareSync('correct horse battery staple', user.password_hash));
    });

    it('a hash of another cost, plain text or a non-string is a 422 naming password', async () => {
      const account = await createTestAccount();
      for (const password of [
        bcrypt.hashSync('pw', 12),
        bcrypt.hashSync('pw', 4),
        'plain-text-password',
        '$2b$10$tooshort',
        12345,
      ]) {
        const body = inviteBody({ password });
        const res = await invite(account.vendor_api_key, body);
        assertValidationFailed(res, 'password', `password ${String(password)}`);
        assert.deepEqual(
          res.body.errors.map((e: any) => e.param),
          ['password'],
        );
        assert.equal((await userByEmail(body.email)).length, 0, 'nothing was created');
      }
    });

    it('omitted: a bcrypt cost-10 hash is generated and stored', async () => {
      const account = await createTestAccount();
      const u = await invited(account.vendor_api_key);
      const [user] = await userByEmail(u.email);
      assert.match(user.password_hash, /^\$2[aby]\$10\$[./A-Za-z0-9]{53}$/);
      assert.equal(bcrypt.getRounds(user.password_hash), 10);
    });
  });

  describe('optional fields', () => {
    it('role_options take yes/no and are stored; other values are a 422', async () => {
      const account = await createTestAccount();
      const roleOptions = { notaryCanInviteSignerForSession: 'yes', showInvoiceTabToUser: 'no' };
      const u = await invited(account.vendor_api_key, { role_options: roleOptions });
      const [link] = await query('SELECT role_options FROM account_members WHERE id = $1', [u.id]);
      assert.deepEqual(link.role_options, roleOptions);

      for (const role_options of [
        { notaryCanInviteSignerForSession: 'maybe' },
        { showInvoiceTabToUser: true },
        { showInvoiceTabToUser: 'YES' },
      ]) {
        const res = await invite(account.vendor_api_key, inviteBody({ role_options }));
        assertValidationFailed(res, /^role_options/, JSON.stringify(role_options));
      }
    });

    it('optional_metadata is stored; over 8 KB is a 422', async () => {
      const account = await createTestAccount();
      const metadata = { crm: { id: 7, tags: ['a', 'b'] }, note: 'x'.repeat(1000) };
      const u = await invited(account.vendor_api_key, { optional_metadata: metadata });
      const [link] = await query('SELECT optional_metadata FROM account_members WHERE id = $1', [u.id]);
      assert.deepEqual(link.optional_metadata, metadata);

      const body = inviteBody({ optional_metadata: { note: 'x'.repeat(9 * 1024) } });
      const res = await invite(account.vendor_api_key, body);
      assertValidationFailed(res, 'optional_metadata');
      assert.equal((await userByEmail(body.email)).length, 0);
    });

    it('vendor_user_id is stored and returned', async () => {
      const account = await createTestAccount();
      const u = await invited(account.vendor_api_key, { vendor_user_id: 'emp-000042' });
      assert.equal(u.vendor_user_id, 'emp-000042');
      const [link] = await query('SELECT vendor_user_id FROM account_members WHERE id = $1', [u.id]);
      assert.equal(link.vendor_user_id, 'emp-000042');
    });
  });

  describe('required fields', () => {
    for (const field of ['email', 'business_role', 'first_name', 'last_name']) {
      it(`missing ${field} is a 422 naming it`, async () => {
        const account = await createTestAccount();
        const body = inviteBody();
        delete body[field];
        const res = await invite(account.vendor_api_key, body);
        assertValidationFailed(res, field);
      });
    }

    it('a body missing all four required fields is a 422 whose errors name each of them', async () => {
      const account = await createTestAccount();
      const res = await invite(account.vendor_api_key, {});
      assertValidationFailed(res, 'email');
      const params = res.body.errors.map((e: any) => e.param).sort();
      assert.deepEqual(
        params,
        ['business_role', 'email', 'first_name', 'last_name'],
        `every missing field is named: ${res.text}`,
      );
    });

    it('an invalid e-mail is a 422 naming email', async () => {
      const account = await createTestAccount();
      const res = await invite(account.vendor_api_key, inviteBody({ email: 'not-an-email' }));
      assertValidationFailed(res, 'email');
    });
  });

  describe('automatic onboarding completion (spec 3, 4.5)', () => {
    for (const missing of Object.keys(COMMISSION)) {
      it(`a notary invite without ${missing} is a 400 with the missing-fields message`, async () => {
        const account = await createTestAccount({ autoOnboarding: true });
        const body = inviteBody({ ...COMMISSION });
        delete body[missing];
        const res = await invite(account.vendor_api_key, body);
        assertFail(res, 400, ONBOARDING_MESSAGE);
        assert.equal((await userByEmail(body.email)).length, 0, 'nothing was created');
      });
    }

    it('a commission state that is not a US state is a 422 naming state, in the words the create uses', async () => {
      const account = await createTestAccount({ autoOnboarding: true });
      const res = await invite(account.vendor_api_key, inviteBody({ ...COMMISSION, state: 'Atlantis' }));
      assertValidationFailed(res, 'state');
      assert.deepEqual(res.body.errors, [
        { param: 'state', msg: 'state must be the name or abbreviation of a US state' },
      ]);
    });

    it('a notary invite with the four fields completes onboarding and generates the seal (PNG and SVG)', async () => {
      const account = await createTestAccount({ autoOnboarding: true });
      const u = await invited(account.vendor_api_key, {
        first_name: 'Rosa',
        last_name: 'Delgado',
        ...COMMISSION,
      });
      assert.equal(u.onboarding_status, 'complete');
      assert.equal(u.commission_number, 'TX-123456');
      const got = await request(`${TEAM}/${u.id}`, { auth: account.vendor_api_key });
      assert.equal(got.body.onboarding_status, 'complete');

      const png = await seal(account.vendor_api_key, u.id, 'png');
      assert.equal(png.status, 200, png.bytes.toString().slice(0, 300));
      assert.match(png.type, /^image\/png/);
      const decoded = decodePng(png.bytes);
      assert.ok(decoded.width > 0 && decoded.height > 0, `dimensions ${decoded.width}x${decoded.height}`);

      const svg = await seal(account.vendor_api_key, u.id, 'svg');
      assert.equal(svg.status, 200);
      assert.match(svg.type, /^image\/svg\+xml/);
      const text = svg.bytes.toString('utf8');
      assert.match(text, /<svg[\s>]/);
      assert.ok(text.includes('STATE OF TEXAS'), 'the state full name, upper-cased');
      assert.ok(text.includes('Rosa Delgado'), "the notary's name");
      assert.ok(text.includes('TX-123456'), 'the commission number');
      assert.match(text, /2030-06-30|06\/30\/2030|June 30, 2030|JUNE 30, 2030/, 'the commission expiry');

      const [stored] = await query(
        'SELECT s.state FROM notary_seals s JOIN account_members m ON m.user_id = s.user_id WHERE m.id = $1',
        [u.id],
      );
      assert.equal(stored.state, 'TX');
    });

    it('a round-seal state: the seal names the state given by its full name', async () => {
      const account = await createTestAccount({ autoOnboarding: true });
      const u = await invited(account.vendor_api_key, {
        first_name: 'Ada',
        last_name: 'Byron',
        ...COMMISSION,
        state: 'California',
        county: 'Alameda',
        commission_number: 'C-998877',
      });
      assert.equal(u.onboarding_status, 'complete');
      const svg = (await seal(account.vendor_api_key, u.id, 'svg')).bytes.toString('utf8');
      assert.ok(svg.includes('STATE OF CALIFORNIA'), svg);
      assert.ok(svg.includes('Ada Byron'));
      assert.ok(svg.includes('C-998877'));
      const png = await seal(account.vendor_api_key, u.id, 'png');
      assert.equal(png.status, 200);
      const decoded = decodePng(png.bytes);
      assert.ok(decoded.width > 0 && decoded.height > 0);
    });

    it('a pretagger invite on such an account needs none of the four fields', async () => {
      const account = await createTestAccount({ autoOnboarding: true });
      const res = await invite(account.vendor_api_key, inviteBody({ business_role: 'pretagger' }));
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.user_data.business_role, 'pretagger');
    });

    it('without automatic onboarding a notary stays pending and has no seal (404)', async () => {
      const account = await createTestAccount();
      const u = await invited(account.vendor_api_key, { ...COMMISSION });
      assert.equal(u.onboarding_status, 'pending');
      for (const format of ['png', 'svg'] as const) {
        const res = await seal(account.vendor_api_key, u.id, format);
        assert.equal(res.status, 404, `seal.${format}`);
      }
      const withoutFields = await invited(account.vendor_api_key);
      assert.equal(withoutFields.onboarding_status, 'pending');
    });
  });

  it('concurrent invites of the same new e-mail create one user and one link', async () => {
    const account = await createTestAccount();
    const email = uniqueEmail('race');
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        invite(account.vendor_api_key, inviteBody({ email: i % 2 ? email.toUpperCase() : email })),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 201], results.map((r) => r.text).join('\n'));
    const created = results.find((r) => r.status === 201)!.body.user_data;
    for (const r of results.filter((x) => x.status === 200)) {
      assert.deepEqual(r.body, { success: true, already_linked: true, team_member_id: created.id });
    }
    assert.equal((await userByEmail(email)).length, 1);
    const links = await query(
      `SELECT count(*)::int AS n FROM account_members m JOIN users u ON u.id = m.user_id
        WHERE m.account_id = $1 AND lower(u.email) = lower($2)`,
      [account.account_id, email],
    );
    assert.equal(links[0].n, 1);
  });

  it('concurrent invites of the same new e-mail by two vendors create one user linked to both', async () => {
    const vendors = await Promise.all([createTestAccount(), createTestAccount()]);
    const email = uniqueEmail('race2');
    const results = await Promise.all(vendors.map((v) => invite(v.vendor_api_key, inviteBody({ email }))));
    assert.deepEqual(
      results.map((r) => r.status),
      [201, 201],
      results.map((r) => r.text).join('\n'),
    );
    const users = await userByEmail(email);
    assert.equal(users.length, 1);
    const links = await query(
      'SELECT count(*)::int AS n FROM account_members WHERE user_id = $1 AND deleted_at IS NULL',
      [users[0].id],
    );
    assert.equal(links[0].n, 2);
  });
});
