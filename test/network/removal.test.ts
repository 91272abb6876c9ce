import assert from 'node:assert/strict';
import { createTestAccount } from '../support/accounts';
import { admin } from '../support/adminCli';
import { testEnvironment } from '../support/environment';
import { request } from '../support/http';
import { action, getSession, joinSession, teamNotarySession, waitForSession } from '../support/sessions';
import { receiverForSuite, subscribe, type ReceivedWebhook } from '../support/webhookReceiver';
import { recordHistory } from '../support/histories';
import { removeNetworkPerson } from '../../src/network/networkRemoval';
import { freePort } from '../support/freePort';
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

  it('a removed notary is offered nothing more, their sign-in and links end, their unfinished session is listed with its integrator, and the list shows who left and why', async () => {
    const account = await createTestAccount({ name: 'Magnolia Title' });
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
        already_removed: false,
        unfinished_sessions: [],
        open_offers: 0,
        back_to_queue: [],
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
    // Run again (as after a removal that lost Temporal midway): the first removal stands, and nothing changes.
    const again = await admin([
      'remove-network-notary',
      `--email=${removed.email}`,
      '--reason=Another reason',
    ]);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(again.json, { ...first.json, already_removed: true });
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

    // Removed while holding a session not begun: it goes back to the queue at once, and they cannot start it.
    const second = await admin([
      'remove-network-notary',
      `--email=${other.email}`,
      '--reason=Left the network',
    ]);
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(second.json.unfinished_sessions, [
      {
        bn_session_id: held.bn_session_id,
        status: 'ready',
        account: { id: account.account_id, name: 'Magnolia Title' },
      },
    ]);
    assert.deepEqual(second.json.back_to_queue, [held.bn_session_id]);
    await waitForSession(account.api_key, held.bn_session_id, (s) => s.status === 'awaiting_notary');
    const start = await request(`/api/integrationsv2/sessions/${held.bn_session_id}/start`, {
      auth: other.token,
      body: {},
    });
    assert.equal(start.status, 401);
    // On to another notary.
    const third = await networkNotary('MS');
    await waitForRelation(third.token, held.bn_session_id, 'offered', OFFERED_WITHIN_MS);
    assert.equal((await meAction(third.token, held.bn_session_id, 'accept')).status, 200);
    assert.equal((await getSession(account.api_key, held.bn_session_id)).body.notary.email, third.email);
    await recordHistory('session-network-notary-left', `session-${held.bn_session_id}`);

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

  describe('a witness removed before the act begins is replaced in their place', () => {
    const hooks = receiverForSuite();
    const witnessAt = (session: any, index: number) =>
      session.participants.find((p: any) => p.role === 'witness' && p.index === index);

    /** A team notary's session with one network witness, who has joined; the signer waits. */
    async function sessionWithJoinedWitness() {
      // Two free at least: the one assigned and one to take their place.
      for (let i = 0; i < 2; i++) await networkWitness();
      const session = await teamNotarySession({ witnesses: { number_of_service_witnesses: 1 } });
      const apiKey = session.account.api_key;
      await subscribe(apiKey, hooks.url, ['witness_assigned']);
      await waitForSession(apiKey, session.id, (s) => s.status === 'ready');
      assert.equal((await joinSession(session.created.body.bn_signing_url)).status, 200);
      const assigned = await waitForSession(apiKey, session.id, (s) => witnessAt(s, 0));
      const leaving = await signIn(witnessAt(assigned, 0).email);
      assert.equal((await meAction(leaving.token, session.id, 'join')).status, 200);
      return { ...session, apiKey, leaving };
    }

    /** Waits for another witness in place 0 and the webhook that names whom they replace; they join. */
    async function replacementJoins(session: { apiKey: string; id: string }, left: string) {
      const replaced = await waitForSession(
        session.apiKey,
        session.id,
        (s) => witnessAt(s, 0) && witnessAt(s, 0).email !== left,
      );
      const email = witnessAt(replaced, 0).email;
      const isAssignment = (h: ReceivedWebhook) =>
        h.json.bn_session_id === session.id && h.json.event === 'witness_assigned';
      const assignments = (await hooks.receiver.waitFor((r) => r.filter(isAssignment).length >= 2)).filter(
        isAssignment,
      );
      assert.deepEqual(
        assignments.map((h) => ({ ...h.json.data, name: undefined })),
        [
          { role: 'witness', index: 0, email: left, name: undefined },
          { role: 'witness', index: 0, email, name: undefined, replaces: left },
        ],
      );
      const startPath = `/api/integrationsv2/sessions/${session.id}/start`;
      const early = await request(startPath, { auth: session.apiKey, body: {} });
      assert.equal(early.status, 409, 'the join of the witness who left no longer counts');
      assert.equal(
        early.body.response_message,
        'Session cannot be started before its witnesses have joined (0 of 1)',
      );
      const arriving = await signIn(email);
      assert.equal((await meAction(arriving.token, session.id, 'join')).status, 200);
      assert.equal((await request(startPath, { auth: session.apiKey, body: {} })).status, 200);
    }

    it('by the operator’s removal: the session is named, another witness takes the place, and the act starts once they join', async () => {
      const session = await sessionWithJoinedWitness();
      const { email } = session.leaving;
      const args = ['remove-network-witness', `--email=${email}`, '--reason=Left the network'];
      const closed = `127.0.0.1:${await freePort()}`;
      const untold = await admin(args, { ...testEnvironment().processEnv, TEMPORAL_ADDRESS: closed });
      assert.equal(untold.code, 1, untold.stderr);
      assert.match(untold.json.error, new RegExp(`^Temporal at ${closed} cannot be reached`));
      assert.equal((await mySessions(session.leaving.token)).status, 200, 'refused before any change');
      const removal = await admin(args);
      assert.equal(removal.code, 0, removal.stderr);
      assert.deepEqual(removal.json.unfinished_sessions, [
        {
          bn_session_id: session.id,
          status: 'ready',
          account: {
            id: session.account.account_id,
            name: removal.json.unfinished_sessions[0]?.account.name,
          },
        },
      ]);
      assert.match(removal.json.unfinished_sessions[0].account.name, /^Test account /);
      assert.deepEqual(removal.json.replacing_in, [session.id]);
      await replacementJoins(session, email);
      assert.equal((await action(session.apiKey, session.id, 'cancel')).status, 200);
      await recordHistory('session-network-witness-replaced', `session-${session.id}`);
    });

    it('by the start, when the session was not told: refused with the reason, and the place filled again', async () => {
      const session = await sessionWithJoinedWitness();
      const { email } = session.leaving;
      // As an operator's removal whose word to the session was lost (Temporal out of reach then).
      await removeNetworkPerson(testEnvironment().runtime.sequelize, 'witness', {
        email,
        reason: 'Left the network',
      });
      const start = await request(`/api/integrationsv2/sessions/${session.id}/start`, {
        auth: session.apiKey,
        body: {},
      });
      assert.equal(start.status, 409, start.text);
      assert.equal(start.headers.get('retry-after'), '5');
      assert.equal(
        start.body.response_message,
        `Session cannot be started: its network witness ${email} left the network; another is being assigned`,
      );
      await replacementJoins(session, email);
      assert.equal((await action(session.apiKey, session.id, 'cancel')).status, 200);
    });

    it('by the operator’s removal run again, when the first could not tell the session', async () => {
      const session = await sessionWithJoinedWitness();
      const { email } = session.leaving;
      const first = await removeNetworkPerson(testEnvironment().runtime.sequelize, 'witness', {
        email,
        reason: 'Left the network',
      });
      const again = await admin(['remove-network-witness', `--email=${email}`, '--reason=Left the network']);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(again.json.already_removed, true);
      assert.equal(again.json.removed_at, first.removed_at);
      assert.deepEqual(again.json.replacing_in, [session.id]);
      await replacementJoins(session, email);
      assert.equal((await action(session.apiKey, session.id, 'cancel')).status, 200);
    });
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
