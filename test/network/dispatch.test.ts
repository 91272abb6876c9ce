import assert from 'node:assert/strict';
import { createTestAccount } from '../support/accounts';
import { action, getSession, tokenOf, waitForSession } from '../support/sessions';
import { eventually, letTimePass } from '../support/eventually';
import { request } from '../support/http';
import { WebhookReceiver, subscribe, type ReceivedWebhook } from '../support/webhookReceiver';
import { recordHistory } from '../support/histories';
import { testEnvironment, TEST_METRICS_TOKEN } from '../support/environment';
import { farJurisdictionDays } from '../support/farJurisdictions';
import {
  firstOfferedOf,
  meAction,
  mySessions,
  networkNotary,
  networkWitness,
  offersTo,
  onDemandSession,
  signIn,
  signerJoins,
  waitForRelation,
} from './helpers';

// Each test uses US states no other test uses, so only its own sessions ask for its notaries (sessions
// left waiting by other tests without a state may still be offered them: assertions allow for that).
describe('the on-demand network: dispatch when a signer waits, offers, accepts and releases (issue 11)', function () {
  this.timeout(90_000);
  const receiver = new WebhookReceiver();
  let hookUrl: string;
  before(async () => {
    hookUrl = await receiver.start();
  });
  after(() => receiver.stop());

  it('with one notary and three sessions, only the one whose signer waits is offered; an accept makes it ready at once', async () => {
    const account = await createTestAccount();
    await subscribe(account.api_key, hookUrl, ['notary_assigned', 'session_started', 'session_completed']);
    const notary = await networkNotary('WY');
    const [idleA, waiting, idleC] = [
      await onDemandSession(account.api_key, 'WY'),
      await onDemandSession(account.api_key, 'WY'),
      await onDemandSession(account.api_key, 'WY'),
    ];
    assert.equal((await signerJoins(waiting)).status, 200);
    await waitForRelation(notary.token, waiting.bn_session_id, 'offered');

    const started = performance.now();
    const accepted = await meAction(notary.token, waiting.bn_session_id, 'accept');
    const acceptMs = performance.now() - started;
    assert.equal(accepted.status, 200, accepted.text);
    assert.equal(accepted.body.status, 'ready', 'the accept answers once the session is ready');
    assert.ok(acceptMs < 1_000, `ready ${Math.round(acceptMs)} ms after the accept`);
    const session = (await getSession(account.api_key, waiting.bn_session_id)).body;
    assert.equal(session.status, 'ready');
    assert.equal(session.notary.source, 'network');
    assert.equal(session.notary.email, notary.email);

    for (const idle of [idleA, idleC]) {
      const s = (await getSession(account.api_key, idle.bn_session_id)).body;
      assert.equal(s.status, 'awaiting_notary', 'a session whose signer is not there waits');
      assert.equal(s.notary, null, 'an idle session holds no notary');
    }
    const listed = (await mySessions(notary.token)).body.sessions.map((s: any) => s.bn_session_id);
    assert.ok(!listed.includes(idleA.bn_session_id) && !listed.includes(idleC.bn_session_id));

    assert.equal(
      (
        await request(`/api/integrationsv2/sessions/${waiting.bn_session_id}/start`, {
          auth: notary.token,
          body: {},
        })
      ).status,
      200,
    );
    assert.equal(
      (
        await request(`/api/integrationsv2/sessions/${waiting.bn_session_id}/complete`, {
          auth: notary.token,
          body: {},
        })
      ).status,
      200,
    );
    await waitForSession(
      account.api_key,
      waiting.bn_session_id,
      (s) => s.documents_status === 'released',
      60_000,
    );
    const events = await receiver.waitFor(
      (r) => r.filter((h) => h.json.bn_session_id === waiting.bn_session_id).length >= 3,
    );
    assert.deepEqual(
      events.filter((h) => h.json.bn_session_id === waiting.bn_session_id).map((h) => h.json.event),
      ['notary_assigned', 'session_started', 'session_completed'],
    );
    const metrics = await (
      await fetch(`${testEnvironment().apiUrl}/metrics`, {
        headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` },
      })
    ).text();
    assert.match(metrics, /notary_time_to_accept_seconds_count [1-9]/);
    for (const idle of [idleA, idleC]) await action(account.api_key, idle.bn_session_id, 'cancel');
    await recordHistory('session-network-offer-accepted', `session-${waiting.bn_session_id}`);
  });

  it('offers only notaries with an unexpired commission in the requested state', async () => {
    const account = await createTestAccount();
    const expired = await networkNotary('VT', '2020-01-01');
    const elsewhere = await networkNotary('NH');
    const session = await onDemandSession(account.api_key, 'Vermont');
    await signerJoins(session);
    await letTimePass(2_500);
    assert.ok(!(await offersTo(expired.token)).includes(session.bn_session_id));
    assert.ok(!(await offersTo(elsewhere.token)).includes(session.bn_session_id));
    const valid = await networkNotary('VT');
    await waitForRelation(valid.token, session.bn_session_id, 'offered');
    await action(account.api_key, session.bn_session_id, 'cancel');
  });

  it('offers only a notary whose commission stays in force for the next 24 hours where it was issued: Guam’s day ends before UTC’s, American Samoa’s after', async function () {
    this.timeout(180_000);
    const days = await farJurisdictionDays();
    const account = await createTestAccount();
    // In force now, but it ends at Guam's next midnight, within the day: a session taken now could not
    // be completed once it did.
    const guamLastDay = await networkNotary('GU', days.guam);
    const guamSession = await onDemandSession(account.api_key, 'Guam');
    await signerJoins(guamSession);
    // American Samoa's tomorrow ends 24 to 48 hours from now, whatever UTC's date.
    const samoa = await networkNotary('AS', days.samoaTomorrow);
    const samoaSession = await onDemandSession(account.api_key, 'American Samoa');
    await signerJoins(samoaSession);
    await waitForRelation(samoa.token, samoaSession.bn_session_id, 'offered');
    await letTimePass(2_500);
    assert.ok(!(await offersTo(guamLastDay.token)).includes(guamSession.bn_session_id));
    const guam = await networkNotary('GU', days.guamTomorrow);
    await waitForRelation(guam.token, guamSession.bn_session_id, 'offered');
    // Each sees where their commission stands in their own work list.
    const standing = async (token: string) => (await mySessions(token)).body.commission;
    const { commission_number: number, ...lastDay } = await standing(guamLastDay.token);
    assert.match(number, /^GU-/);
    assert.deepEqual(lastDay, {
      state: 'GU',
      commission_expires_on: days.guam,
      ends_at: new Date(Date.parse(`${days.guam}T14:00:00Z`)).toISOString(),
      receives_offers: false,
    });
    assert.equal((await standing(guam.token)).receives_offers, true);
    assert.equal((await standing(samoa.token)).receives_offers, true);
    await action(account.api_key, guamSession.bn_session_id, 'cancel');
    await action(account.api_key, samoaSession.bn_session_id, 'cancel');
  });

  it('a notary whose commission has ended since the offer cannot accept it (409); renewed, they can', async function () {
    this.timeout(180_000);
    const account = await createTestAccount();
    const notary = await networkNotary('MP');
    const session = await onDemandSession(account.api_key, 'Northern Mariana Islands');
    await signerJoins(session);
    await waitForRelation(notary.token, session.bn_session_id, 'offered');
    // Saipan keeps Guam's time: its yesterday is over there, whatever UTC's date.
    const { guamYesterday } = await farJurisdictionDays();
    const setExpiry = (on: string) =>
      testEnvironment().runtime.sequelize.query(
        'UPDATE network_notaries SET commission_expires_on = $2 WHERE email = $1',
        { bind: [notary.email, on] },
      );
    await setExpiry(guamYesterday);
    const refused = await meAction(notary.token, session.bn_session_id, 'accept');
    assert.equal(refused.status, 409, refused.text);
    assert.equal(
      refused.body.response_message,
      `Session cannot be accepted: the notary's commission expired on ${guamYesterday}`,
    );
    assert.ok((await offersTo(notary.token)).includes(session.bn_session_id), 'still only offered');
    await setExpiry('2099-12-31');
    const accepted = await meAction(notary.token, session.bn_session_id, 'accept');
    assert.equal(accepted.status, 200, accepted.text);
    assert.equal(accepted.body.status, 'ready');
    await action(account.api_key, session.bn_session_id, 'cancel');
  });

  it('a notary whose commission is recorded in another state than the session asked for cannot accept, start or complete it (409)', async function () {
    this.timeout(180_000);
    const account = await createTestAccount();
    const notary = await networkNotary('OK');
    const session = await onDemandSession(account.api_key, 'Oklahoma');
    const id = session.bn_session_id;
    await signerJoins(session);
    await waitForRelation(notary.token, id, 'offered');
    // Written to the record directly: the admin CLI keeps a notary's state while they hold an offer or a session.
    const recordState = (state: string) =>
      testEnvironment().runtime.sequelize.query('UPDATE network_notaries SET state = $2 WHERE email = $1', {
        bind: [notary.email, state],
      });
    const elsewhere =
      "the session asks for a notary commissioned in OK, and the notary's commission is from KS";
    const notaryAction = (name: 'start' | 'complete') =>
      request(`/api/integrationsv2/sessions/${id}/${name}`, { auth: notary.token, body: {} });
    await recordState('KS');
    const accept = await meAction(notary.token, id, 'accept');
    assert.equal(accept.status, 409, accept.text);
    assert.equal(accept.body.response_message, `Session cannot be accepted: ${elsewhere}`);
    await recordState('OK');
    assert.equal((await meAction(notary.token, id, 'accept')).status, 200);
    await recordState('KS');
    const start = await notaryAction('start');
    assert.equal(start.status, 409, start.text);
    assert.equal(start.body.response_message, `Session cannot be started: ${elsewhere}`);
    await recordState('OK');
    assert.equal((await notaryAction('start')).status, 200);
    await recordState('KS');
    const complete = await notaryAction('complete');
    assert.equal(complete.status, 409, complete.text);
    assert.equal(complete.body.response_message, `Session cannot be completed: ${elsewhere}`);
    assert.equal((await getSession(account.api_key, id)).body.status, 'in_progress');
    await recordState('OK');
    const completed = await notaryAction('complete');
    assert.equal(completed.status, 200, completed.text);
    assert.equal(completed.body.status, 'completed');
  });

  it('an offer not accepted in time goes to the next notary; the first can no longer take it', async () => {
    const account = await createTestAccount();
    const notaries = [await networkNotary('MT'), await networkNotary('MT')];
    const session = await onDemandSession(account.api_key, 'MT');
    await signerJoins(session);
    const first = await firstOfferedOf(notaries, session.bn_session_id);
    const next = notaries.find((n) => n !== first)!;
    await waitForRelation(next.token, session.bn_session_id, 'offered');
    const late = await meAction(first.token, session.bn_session_id, 'accept');
    assert.equal(late.status, 409);
    assert.equal(late.body.response_message, 'This session is no longer offered to you');
    assert.equal((await meAction(next.token, session.bn_session_id, 'accept')).status, 200);
    const again = await meAction(next.token, session.bn_session_id, 'accept');
    assert.equal(again.status, 200, 'a retried accept is answered with the state');
    assert.equal(again.body.status, 'ready');
    await action(account.api_key, session.bn_session_id, 'cancel');
    await recordHistory('session-network-offer-moved-on', `session-${session.bn_session_id}`);
  });

  it('answers sent the moment each offer is written are taken: decline, decline (each passed on at once), accept', async () => {
    const account = await createTestAccount();
    const notaries = [await networkNotary('WV'), await networkNotary('WV'), await networkNotary('WV')];
    const session = await onDemandSession(account.api_key, 'WV');
    await signerJoins(session);
    const sequelize = testEnvironment().runtime.sequelize;
    for (const answer of ['decline', 'decline', 'accept'] as const) {
      // Straight from the database the moment the offer is written (the session may not have heard of it yet).
      const [offer] = await eventually(
        async () =>
          (
            await sequelize.query(
              `SELECT notary_id FROM notary_offers WHERE session_id = $1 AND outcome = 'open'`,
              { bind: [session.bn_session_id] },
            )
          )[0] as Array<{ notary_id: string }>,
        (rows) => rows.length === 1,
        `an open offer to ${answer}`,
        { intervalMs: 2 },
      );
      const notary = notaries.find((n) => n.id === offer.notary_id);
      assert.ok(notary, 'offered to one of this test’s notaries');
      const answered = await meAction(notary.token, session.bn_session_id, answer);
      assert.equal(answered.status, 200, `${answer}: ${answered.text}`);
    }
    assert.equal((await getSession(account.api_key, session.bn_session_id)).body.status, 'ready');
    await action(account.api_key, session.bn_session_id, 'cancel');
  });

  it('a notary who accepts and does not start is released, and the session goes back to the queue', async () => {
    const account = await createTestAccount();
    await subscribe(account.api_key, hookUrl, ['notary_released']);
    const notary = await networkNotary('ND');
    const session = await onDemandSession(account.api_key, 'ND');
    await signerJoins(session);
    await waitForRelation(notary.token, session.bn_session_id, 'offered');
    assert.equal((await meAction(notary.token, session.bn_session_id, 'accept')).status, 200);
    const released = await waitForSession(
      account.api_key,
      session.bn_session_id,
      (s) => s.status === 'awaiting_notary' && s.notary === null,
      30_000,
    );
    assert.equal(released.status, 'awaiting_notary');
    const isRelease = (h: ReceivedWebhook) =>
      h.json.bn_session_id === session.bn_session_id && h.json.event === 'notary_released';
    const [event] = (await receiver.waitFor((r) => r.some(isRelease))).filter(isRelease);
    assert.equal(event.json.data.notary.email, notary.email);
    const refused = await request(`/api/integrationsv2/sessions/${session.bn_session_id}/start`, {
      auth: notary.token,
      body: {},
    });
    assert.equal(refused.status, 404, 'a released notary no longer acts on it (nor learns it exists)');
    await waitForRelation(notary.token, session.bn_session_id, 'offered');
    await action(account.api_key, session.bn_session_id, 'cancel');
    await recordHistory('session-network-notary-released', `session-${session.bn_session_id}`);
  });

  it('a network notary acts only on the sessions they accepted', async () => {
    const account = await createTestAccount();
    const mine = await networkNotary('SD');
    const other = await networkNotary('NE');
    const session = await onDemandSession(account.api_key, 'SD');
    await signerJoins(session);
    await waitForRelation(mine.token, session.bn_session_id, 'offered');
    const startPath = `/api/integrationsv2/sessions/${session.bn_session_id}/start`;
    const beforeAccept = await request(startPath, { auth: mine.token, body: {} });
    assert.equal(beforeAccept.status, 404, 'an offer is not an assignment: not theirs to act on');
    assert.equal((await meAction(mine.token, session.bn_session_id, 'accept')).status, 200);

    const stranger = await request(startPath, { auth: other.token, body: {} });
    assert.equal(stranger.status, 404, 'a session never offered to them does not exist for them');
    assert.equal((await meAction(other.token, session.bn_session_id, 'accept')).status, 404);
    const cancel = await request(`/api/integrationsv2/sessions/${session.bn_session_id}/cancel`, {
      auth: mine.token,
      body: {},
    });
    assert.equal(cancel.status, 403, 'cancelling stays the integrator’s');
    const integratorsRoute = await request('/api/integrationsv2/sessions', { auth: mine.token });
    assert.equal(integratorsRoute.status, 401, 'a network token is no API key');
    assert.equal((await request(startPath, { auth: mine.token, body: {} })).status, 200);
    await action(account.api_key, session.bn_session_id, 'cancel');
  });

  it('witnesses, invited and from the network, must have joined before the notary starts', async () => {
    const account = await createTestAccount();
    await subscribe(account.api_key, hookUrl, ['witness_assigned', 'join_session']);
    const notary = await networkNotary('RI');
    for (let i = 0; i < 3; i++) await networkWitness();
    const session = await onDemandSession(account.api_key, 'RI', {
      witnesses: {
        number_of_service_witnesses: 1,
        invited_witness_details: [
          { email: 'invited-witness@example.com', firstname: 'Ivy', lastname: 'Invited' },
        ],
      },
    });
    await signerJoins(session);
    const networkWitnessOf = (s: any) =>
      s.participants.find((p: any) => p.role === 'witness' && p.index === 1);
    const assigned = await waitForSession(account.api_key, session.bn_session_id, (s) => networkWitnessOf(s));
    const networkWitnessEmail = networkWitnessOf(assigned).email;
    const isAssignment = (h: ReceivedWebhook) =>
      h.json.bn_session_id === session.bn_session_id && h.json.event === 'witness_assigned';
    const [hook] = (await receiver.waitFor((r) => r.some(isAssignment))).filter(isAssignment);
    assert.equal(hook.json.data.email, networkWitnessEmail);

    await waitForRelation(notary.token, session.bn_session_id, 'offered');
    assert.equal((await meAction(notary.token, session.bn_session_id, 'accept')).status, 200);
    const startPath = `/api/integrationsv2/sessions/${session.bn_session_id}/start`;
    const none = await request(startPath, { auth: notary.token, body: {} });
    assert.equal(none.status, 409);
    assert.equal(
      none.body.response_message,
      'Session cannot be started before its witnesses have joined (0 of 2)',
    );
    const invitedUrl = session.witnessess_signing_urls![0].bn_signing_url;
    assert.equal((await request(`/sign/${tokenOf(invitedUrl)}/join`, { method: 'POST' })).status, 200);
    const one = await request(startPath, { auth: notary.token, body: {} });
    assert.match(one.body.response_message, /\(1 of 2\)/);

    const witness = await signIn(networkWitnessEmail);
    await waitForRelation(witness.token, session.bn_session_id, 'witness');
    assert.equal((await meAction(witness.token, session.bn_session_id, 'accept')).status, 403);
    assert.equal((await meAction(witness.token, session.bn_session_id, 'join')).status, 200);
    assert.equal((await request(startPath, { auth: notary.token, body: {} })).status, 200);
    await action(account.api_key, session.bn_session_id, 'cancel');
    await recordHistory('session-network-witnesses', `session-${session.bn_session_id}`);
  });
});
