import assert from 'node:assert/strict';
import { createTestAccount } from '../support/accounts';
import { admin } from '../support/adminCli';
import { testEnvironment } from '../support/environment';
import { request } from '../support/http';
import { getSession, waitForSession } from '../support/sessions';
import {
  meAction,
  mySessions,
  networkNotary,
  networkWitness,
  onDemandSession,
  signIn,
  signerJoins,
  waitForRelation,
} from './helpers';

const REVOKED = 'Commission revoked by the Mississippi Secretary of State on 2026-12-07';

// Mississippi is this file's own state: only its sessions ask for its notaries. A session another test left
// waiting with no state may still be offered them first (a new notary is first in its line), so an offer to
// this file's session may wait for several of those to expire.
const OFFERED_WITHIN_MS = 120_000;
describe('an operator lists the network and removes a notary or witness from it at once (admin CLI)', function () {
  this.timeout(360_000);

  it('a removed notary is offered nothing more, their sign-in and links end, their unfinished session is listed, and the list shows who left and why', async () => {
    const account = await createTestAccount();
    // Both free and never offered anything: the one added first would be offered first.
    const removed = await networkNotary('MS');
    const other = await networkNotary('MS');
    const unused = new URL((await admin(['network-login-link', `--email=${removed.email}`])).json.login_link);
    const first = await admin(['remove-network-notary', `--email=${removed.email}`, `--reason=${REVOKED}`]);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(
      { ...first.json, removed_at: undefined },
      {
        id: removed.id,
        email: removed.email,
        role: 'notary',
        removed_at: undefined,
        removed_reason: REVOKED,
        unfinished_sessions: [],
        open_offers: 0,
      },
    );
    assert.ok(Math.abs(Date.parse(first.json.removed_at) - Date.now()) < 60_000, first.json.removed_at);
    assert.equal((await mySessions(removed.token)).status, 401, 'their sign-in ends at once');
    const exchanged = await request('/api/integrationsv2/auth/login_link', {
      body: { login_link_id: unused.pathname.split('/').at(-1), key: unused.searchParams.get('key') },
    });
    assert.equal(exchanged.status, 401, 'a link sent before the removal signs nobody in');
    const link = await admin(['network-login-link', `--email=${removed.email}`]);
    assert.equal(link.code, 1);
    assert.equal(
      link.json.error,
      `The network notary ${removed.email} was removed at ${first.json.removed_at}`,
    );
    const again = await admin(['remove-network-notary', `--email=${removed.email}`, `--reason=${REVOKED}`]);
    assert.equal(again.code, 1);
    assert.equal(again.json.error, link.json.error);
    const renewed = await admin([
      'renew-network-notary',
      `--email=${removed.email}`,
      '--commission-number=MS-2',
      '--commission-expires-on=2099-12-31',
    ]);
    assert.equal(renewed.code, 1, 'a renewal does not bring them back');
    assert.equal(renewed.json.error, link.json.error);

    const held = await onDemandSession(account.api_key, 'MS');
    assert.equal((await signerJoins(held)).status, 200);
    await waitForRelation(other.token, held.bn_session_id, 'offered', OFFERED_WITHIN_MS);
    assert.equal((await meAction(other.token, held.bn_session_id, 'accept')).status, 200);
    assert.equal((await getSession(account.api_key, held.bn_session_id)).body.notary.email, other.email);
    // An offer to the removed notary would only show as a delay (it expires unanswered): the offers' own
    // record says whom the session was offered to.
    const [offered] = await testEnvironment().runtime.sequelize.query(
      'SELECT notary_id FROM notary_offers WHERE session_id = $1 ORDER BY offered_at',
      { bind: [held.bn_session_id] },
    );
    assert.deepEqual(offered, [{ notary_id: other.id }], 'offered to the notary still in the network only');

    // Removed while holding a session: it is listed for the operator to follow up, and they cannot start it.
    const second = await admin([
      'remove-network-notary',
      `--email=${other.email}`,
      '--reason=Left the network',
    ]);
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(second.json.unfinished_sessions, [
      { bn_session_id: held.bn_session_id, status: 'ready' },
    ]);
    const start = await request(`/api/integrationsv2/sessions/${held.bn_session_id}/start`, {
      auth: other.token,
      body: {},
    });
    assert.equal(start.status, 401);
    // Not started in time, it goes back to the queue (as for any notary who does not start) and on to another.
    const third = await networkNotary('MS');
    await waitForRelation(third.token, held.bn_session_id, 'offered', OFFERED_WITHIN_MS);
    assert.equal((await meAction(third.token, held.bn_session_id, 'accept')).status, 200);
    assert.equal((await getSession(account.api_key, held.bn_session_id)).body.notary.email, third.email);

    // The operator's list: the network as it stands, and with --include-removed, who left, when and why.
    const listed = await admin(['list-network']);
    assert.equal(listed.code, 0, listed.stderr);
    const listedEmails = listed.json.notaries.map((n: any) => n.email);
    assert.ok(listedEmails.includes(third.email), 'a notary in the network is listed');
    assert.ok(!listedEmails.includes(removed.email) && !listedEmails.includes(other.email));
    const all = await admin(['list-network', '--include-removed']);
    const entry = all.json.notaries.find((n: any) => n.email === removed.email);
    assert.deepEqual(
      { ...entry, commission_number: undefined },
      {
        id: removed.id,
        email: removed.email,
        name: 'Net Notary MS',
        state: 'MS',
        commission_number: undefined,
        commission_expires_on: '2099-12-31',
        removed_at: first.json.removed_at,
        removed_reason: REVOKED,
      },
    );
  });

  it('a removed witness is assigned to no session and their sign-in ends', async () => {
    const account = await createTestAccount();
    const email = await networkWitness();
    const witness = await signIn(email);
    // The oldest free witness is assigned first: make this one the oldest, so only its removal keeps it out.
    await testEnvironment().runtime.sequelize.query(
      `UPDATE network_witnesses SET created_at = '2000-01-01' WHERE lower(email) = lower($1)`,
      { bind: [email] },
    );
    const answer = await admin(['remove-network-witness', `--email=${email}`, '--reason=Left the network']);
    assert.equal(answer.code, 0, answer.stderr);
    assert.equal(answer.json.role, 'witness');
    assert.deepEqual(answer.json.unfinished_sessions, []);
    assert.equal((await mySessions(witness.token)).status, 401);
    const listed = await admin(['list-network']);
    assert.ok(!listed.json.witnesses.some((w: any) => w.email === email), 'no longer listed');

    await networkWitness();
    const session = await onDemandSession(account.api_key, 'MS', {
      witnesses: { number_of_service_witnesses: 1 },
    });
    assert.equal((await signerJoins(session)).status, 200);
    const assigned = await waitForSession(account.api_key, session.bn_session_id, (s) =>
      s.participants.some((p: any) => p.role === 'witness'),
    );
    const witnesses = assigned.participants.filter((p: any) => p.role === 'witness').map((p: any) => p.email);
    assert.equal(witnesses.length, 1);
    assert.notEqual(witnesses[0], email);
  });

  it('refuses an unknown person, a reason left out or blank, and says so', async () => {
    const unknown = await admin(['remove-network-witness', '--email=nobody-here@example.com', '--reason=x']);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.json.error, 'No network witness has e-mail nobody-here@example.com');
    const notary = await networkNotary('MS');
    for (const args of [[], ['--reason=  ']]) {
      const refused = await admin(['remove-network-notary', `--email=${notary.email}`, ...args]);
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.json.error, /--reason/);
    }
    assert.equal((await mySessions(notary.token)).status, 200, 'a refused removal changes nothing');
  });
});
