import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import bcrypt from 'bcryptjs';
import { createTestAccount } from '../support/accounts';
import { request } from '../support/http';
import { createSession, sessionBody } from '../support/sessions';
import {
  assertFail,
  COMMISSION,
  INVALID_ID,
  invite,
  inviteBody,
  invited,
  query,
  TEAM,
  uniqueEmail,
} from './helpers';

function unlink(vendorKey: string, memberId: string) {
  return request(`${TEAM}/${memberId}`, { auth: vendorKey, method: 'DELETE' });
}

async function unlinked(vendorKey: string, memberId: string) {
  const res = await unlink(vendorKey, memberId);
  assert.equal(res.status, 200, `unlink ${memberId}: ${res.text}`);
  return res;
}

/** A user who exists before any vendor invites them (signed up on their own: not a child account). */
async function existingUser(email = uniqueEmail('self-signed-up')) {
  const [user] = await query(`INSERT INTO users (email, password_hash) VALUES ($1, $2) RETURNING *`, [
    email,
    bcrypt.hashSync('their own password', 10),
  ]);
  return user;
}

function assertSessionFailure(res: { status: number; body: any; text: string }, message: string) {
  assert.equal(res.status, 403, res.text);
  assert.deepEqual(res.body, {
    response: 'Fail',
    response_message: message,
    notarization_id: '',
    bn_session_id: '',
    bn_signing_url: '',
  });
}

describe('DELETE /team_members/{id} (spec 3, 4.8)', () => {
  it('answers 200 {success: true, message} and has every effect of spec 3', async () => {
    const account = await createTestAccount({ autoOnboarding: true });
    const roleOptions = { notaryCanInviteSignerForSession: 'yes', showInvoiceTabToUser: 'yes' };
    // A child notary account: created by this invite.
    const child = await invited(account.vendor_api_key, {
      ...COMMISSION,
      first_name: 'Chloe',
      last_name: 'Child',
      role_options: roleOptions,
      optional_metadata: { crm: 'c-1' },
    });
    // A user who existed before the invite.
    const own = await existingUser();
    const ownInvite = await invite(
      account.vendor_api_key,
      inviteBody({ email: own.email, ...COMMISSION, role_options: roleOptions }),
    );
    assert.equal(ownInvite.status, 201, ownInvite.text);
    const ownMemberId = ownInvite.body.user_data.id;

    const userOf = async (memberId: string) =>
      (
        await query(`SELECT u.* FROM users u JOIN account_members m ON m.user_id = u.id WHERE m.id = $1`, [
          memberId,
        ])
      )[0];
    const childBefore = await userOf(child.id);
    const ownBefore = await userOf(ownMemberId);
    const commissionOf = async (userId: string) =>
      (await query('SELECT * FROM notary_commissions WHERE user_id = $1', [userId]))[0];
    const commissionsBefore = [await commissionOf(childBefore.id), await commissionOf(ownBefore.id)];
    for (const commission of commissionsBefore) assert.ok(commission, 'both notaries are onboarded');
    // A pro account is one with an active link to a vendor.
    const activeLinks = async (userId: string) =>
      (
        await query(
          'SELECT count(*)::int AS n FROM account_members WHERE user_id = $1 AND deleted_at IS NULL',
          [userId],
        )
      )[0].n;
    for (const u of [childBefore, ownBefore]) assert.equal(await activeLinks(u.id), 1);

    for (const memberId of [child.id, ownMemberId]) {
      const res = await unlinked(account.vendor_api_key, memberId);
      assert.deepEqual(Object.keys(res.body).sort(), ['message', 'success']);
      assert.equal(res.body.success, true);
      assert.ok(typeof res.body.message === 'string' && res.body.message.length > 0);
    }

    // The links: soft-deleted, role and role options cleared.
    const links = await query(
      'SELECT id, deleted_at, business_role, role_options, user_id FROM account_members WHERE id = ANY($1::uuid[])',
      [[child.id, ownMemberId]],
    );
    assert.equal(links.length, 2, 'the link rows are kept');
    for (const link of links) {
      assert.ok(link.deleted_at instanceof Date, 'deleted_at is set');
      assert.ok(Math.abs(link.deleted_at.getTime() - Date.now()) < 60_000);
      assert.equal(link.business_role, null);
      assert.equal(link.role_options, null);
    }

    // The users: free accounts (no vendor link left), kept with their data and their commission.
    const childAfter = await query('SELECT * FROM users WHERE id = $1', [childBefore.id]);
    const ownAfter = await query('SELECT * FROM users WHERE id = $1', [ownBefore.id]);
    assert.equal(childAfter.length, 1, 'the child account is kept');
    assert.equal(ownAfter.length, 1, 'the pre-existing user is kept');
    for (const [index, [before, after]] of [
      [childBefore, childAfter[0]],
      [ownBefore, ownAfter[0]],
    ].entries()) {
      assert.equal(await activeLinks(after.id), 0, 'a free account');
      for (const kept of ['password_hash', 'is_child_account']) {
        assert.deepEqual(after[kept], before[kept], `${kept} is kept`);
      }
      assert.deepEqual(await commissionOf(after.id), commissionsBefore[index], 'the commission is kept');
    }
    const seals = await query('SELECT count(*)::int AS n FROM notary_seals WHERE user_id = $1', [
      childBefore.id,
    ]);
    assert.equal(seals[0].n, 1, "the child notary's seal is kept");

    // The child notary account's e-mail gets a suffix; it stays unique.
    const renamed: string = childAfter[0].email;
    assert.notEqual(renamed.toLowerCase(), child.email.toLowerCase(), 'the child account e-mail is changed');
    assert.ok(
      renamed.startsWith(child.email.split('@')[0]),
      `a suffix is added to ${child.email}: ${renamed}`,
    );
    const sameEmail = await query('SELECT count(*)::int AS n FROM users WHERE lower(email) = lower($1)', [
      renamed,
    ]);
    assert.equal(sameEmail[0].n, 1, 'the changed e-mail is unique');
    const original = await query('SELECT count(*)::int AS n FROM users WHERE lower(email) = lower($1)', [
      child.email,
    ]);
    assert.equal(original[0].n, 0, 'the original address is free again');

    // The user who existed before keeps their e-mail.
    assert.equal(ownAfter[0].email, own.email);
  });

  it('the renaming suffix does not collide when the same address is invited and unlinked again', async () => {
    const account = await createTestAccount();
    const email = uniqueEmail('again');
    const renamed: string[] = [];
    for (let round = 0; round < 3; round++) {
      const m = await invited(account.vendor_api_key, { email });
      const [user] = await query('SELECT id FROM users WHERE lower(email) = lower($1)', [email]);
      await unlinked(account.vendor_api_key, m.id);
      const [after] = await query('SELECT email FROM users WHERE id = $1', [user.id]);
      renamed.push(after.email);
    }
    assert.equal(new Set(renamed.map((e) => e.toLowerCase())).size, 3, renamed.join(', '));
    for (const e of renamed) assert.notEqual(e.toLowerCase(), email.toLowerCase());
  });

  it('a second DELETE is a 404 Team member link not found', async () => {
    const account = await createTestAccount();
    const m = await invited(account.vendor_api_key);
    await unlinked(account.vendor_api_key, m.id);
    assertFail(await unlink(account.vendor_api_key, m.id), 404, 'Team member link not found');
  });

  it("another vendor's member, or an unknown id, is a 404 and nothing changes", async () => {
    const vendorA = await createTestAccount();
    const vendorB = await createTestAccount();
    const m = await invited(vendorA.vendor_api_key);
    assertFail(await unlink(vendorB.vendor_api_key, m.id), 404, 'Team member link not found');
    assertFail(await unlink(vendorB.vendor_api_key, crypto.randomUUID()), 404, 'Team member link not found');
    const [link] = await query('SELECT deleted_at, business_role FROM account_members WHERE id = $1', [m.id]);
    assert.equal(link.deleted_at, null);
    assert.equal(link.business_role, 'notary');
    assert.equal((await request(`${TEAM}/${m.id}`, { auth: vendorA.vendor_api_key })).status, 200);
  });

  it('a malformed id is a 422 INVALID_ID', async () => {
    const account = await createTestAccount();
    for (const id of ['nope', '123', `${crypto.randomUUID()}0`]) {
      const res = await unlink(account.vendor_api_key, id);
      assert.equal(res.status, 422, `${id}: ${res.text}`);
      assert.deepEqual(res.body, INVALID_ID);
    }
  });

  it('without an active vendor admin it is a 403 Vendor admin user not found', async () => {
    const account = await createTestAccount();
    const notary = await invited(account.vendor_api_key);
    const admins = await request(`${TEAM}?role=admin`, { auth: account.vendor_api_key });
    assert.equal(admins.status, 200, admins.text);
    assert.equal(admins.body.data.length, 1, 'the owner admin');
    await unlinked(account.vendor_api_key, admins.body.data[0].id);

    assertFail(await unlink(account.vendor_api_key, notary.id), 403, 'Vendor admin user not found');
    const still = await request(`${TEAM}/${notary.id}`, { auth: account.vendor_api_key });
    assert.equal(still.status, 200, 'the notary is still linked');
    const [link] = await query('SELECT deleted_at FROM account_members WHERE id = $1', [notary.id]);
    assert.equal(link.deleted_at, null);

    // A new admin makes unlinking possible again.
    await invited(account.vendor_api_key, { business_role: 'admin' });
    await unlinked(account.vendor_api_key, notary.id);
  });

  it('an unlinked notary can no longer be named as session_notary_email (child account)', async () => {
    const account = await createTestAccount({ autoOnboarding: true });
    const notary = await invited(account.vendor_api_key, COMMISSION);
    const before = await createSession(
      account.api_key,
      await sessionBody({ session_notary_email: notary.email }),
    );
    assert.equal(before.status, 200, `before unlinking: ${before.text}`);
    assert.equal(before.body.response, 'Pass');

    await unlinked(account.vendor_api_key, notary.id);
    const after = await createSession(
      account.api_key,
      await sessionBody({ session_notary_email: notary.email }),
    );
    assertSessionFailure(after, 'Invalid session_notary_email');
  });

  it('an unlinked notary can no longer be named as session_notary_email (pre-existing user, e-mail kept)', async () => {
    const account = await createTestAccount({ autoOnboarding: true });
    const own = await existingUser();
    const linked = await invite(account.vendor_api_key, inviteBody({ email: own.email, ...COMMISSION }));
    assert.equal(linked.status, 201, linked.text);
    const before = await createSession(
      account.api_key,
      await sessionBody({ session_notary_email: own.email }),
    );
    assert.equal(before.status, 200, `before unlinking: ${before.text}`);

    await unlinked(account.vendor_api_key, linked.body.user_data.id);
    const [user] = await query('SELECT email FROM users WHERE id = $1', [own.id]);
    assert.equal(user.email, own.email, 'the user still has the address');
    const after = await createSession(
      account.api_key,
      await sessionBody({ session_notary_email: own.email }),
    );
    assertSessionFailure(after, 'Invalid session_notary_email');
  });
});
