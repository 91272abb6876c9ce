import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { request } from '../support/http';
import { testEnvironment } from '../support/environment';
import { startSecondApp } from '../support/secondApp';
import { recordHistory } from '../support/histories';
import { eventually, letTimePass } from '../support/eventually';
import { action, signer, tokenOf, waitForSession } from '../support/sessions';
import { WebhookReceiver, subscribe } from '../support/webhookReceiver';
import { ID_FRONT, SELFIE, answers, passIdCheck, passKba, photo, type KnownFacts } from '../support/identity';
import { join, query, readySession, signingView, teamAccount, teamBody } from '../sessions/helpers';
import {
  meAction,
  mySessions,
  networkNotary,
  networkWitness,
  onDemandSession,
  signIn,
  signerJoins,
} from '../network/helpers';

const IDENTITY_EVENTS = ['identity_verified', 'kba_failed', 'id_check_failed', 'participant_locked_out'];

/** A signer with a full record, so the sandbox asks about facts they know. */
function texan(extra: Record<string, unknown> = {}) {
  return signer(0, {
    authentication_type: 'kba',
    first_name: 'Tessa',
    last_name: `Texan${crypto.randomUUID().slice(0, 4)}`,
    middle_name: 'June',
    address: '4100 Congress Avenue',
    city: 'Austin',
    state: 'TX',
    zip: '78701',
    contact_details: '+1 512 555 0142',
    ...extra,
  });
}
const factsOf = (s: Record<string, any>): KnownFacts =>
  ({ ...s, state_name: s.state === 'TX' ? 'Texas' : undefined }) as KnownFacts;

function startKba(token: string, body: Record<string, unknown> = {}) {
  return request(`/sign/${token}/identity/kba`, { body });
}
function answerKba(token: string, checkId: string, body: Record<string, unknown>) {
  return request(`/sign/${token}/identity/kba/${checkId}/answers`, { body });
}
function idCheck(token: string, body: Record<string, unknown>) {
  return request(`/sign/${token}/identity/id_check`, { body });
}

describe('identity verification (issue 12)', function () {
  this.timeout(120_000);
  const receiver = new WebhookReceiver();
  let hookUrl: string;
  before(async () => {
    hookUrl = await receiver.start();
  });
  after(() => receiver.stop());

  async function session(signers: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) {
    const team = await teamAccount();
    await subscribe(team.apiKey, hookUrl, ['join_session', ...IDENTITY_EVENTS, 'session_started']);
    const created = await readySession(
      team.apiKey,
      await teamBody(team.notaryEmail, { all_signers: signers, ...extra }),
    );
    return { ...team, created, id: created.bn_session_id as string, token: tokenOf(created.bn_signing_url) };
  }
  const eventsOf = (id: string) =>
    receiver.received.filter((r) => r.json.bn_session_id === id).map((r) => r.json);
  const waitForEvent = async (id: string, name: string, count = 1) => {
    await receiver.waitFor(() => eventsOf(id).filter((e) => e.event === name).length >= count);
    return eventsOf(id).filter((e) => e.event === name);
  };

  it('KBA: 5 questions of 5 choices after joining; the notary cannot start until the signer passes', async () => {
    const person = texan();
    const s = await session([person]);
    const early = await startKba(s.token);
    assert.equal(early.status, 409, early.text);
    assert.equal(early.body.response_message, 'Join the session before verifying your identity');
    assert.equal((await join(s.token)).status, 200);
    assert.equal((await signingView(s.token)).body.step, 'verify');

    const refused = await action(s.apiKey, s.id, 'start');
    assert.equal(refused.status, 409, refused.text);
    assert.equal(
      refused.body.response_message,
      'Session cannot be started before every participant has verified their identity (0 of 1)',
    );

    const quiz = await startKba(s.token);
    assert.equal(quiz.status, 200, quiz.text);
    assert.equal(quiz.body.questions.length, 5);
    for (const q of quiz.body.questions) assert.equal(q.choices.length, 5, JSON.stringify(q));
    assert.ok(Date.parse(quiz.body.deadline) - Date.now() <= 120_000, 'two minutes to answer');
    assert.equal(
      (await startKba(s.token)).body.check_id,
      quiz.body.check_id,
      'a reload resumes the open quiz',
    );
    assert.ok(!JSON.stringify(quiz.body).includes('correct'), 'no answer key reaches the participant');

    const scored = await answerKba(s.token, quiz.body.check_id, {
      answers: answers(quiz.body, factsOf(person)),
    });
    assert.equal(scored.status, 200, scored.text);
    assert.deepEqual(
      { outcome: scored.body.outcome, correct: scored.body.correct, total: scored.body.total },
      { outcome: 'passed', correct: 5, total: 5 },
    );
    const again = await answerKba(s.token, quiz.body.check_id, { answers: [] });
    assert.equal(again.body.outcome, 'passed', 'answering a scored attempt again returns its outcome');

    const [verified] = await waitForEvent(s.id, 'identity_verified');
    assert.deepEqual(verified.data, {
      role: 'signer',
      index: 0,
      email: person.email,
      method: 'kba',
      attempt: 1,
    });
    assert.equal((await signingView(s.token)).body.step, 'waiting');
    assert.equal((await action(s.apiKey, s.id, 'start')).status, 200);
    assert.equal(eventsOf(s.id).filter((e) => e.event === 'identity_verified').length, 1, 'reported once');
  });

  it('KBA: 80 % passes; a failure leaves one retake of mostly new questions; failing it locks out for 24 h', async () => {
    const person = texan();
    const s = await session([person]);
    await join(s.token);

    const first = (await startKba(s.token)).body;
    const fourOfFive = await answerKba(s.token, first.check_id, {
      answers: answers(first, factsOf(person), 3),
    });
    assert.equal(fourOfFive.body.outcome, 'failed', '3 of 5 is 60 %');
    assert.deepEqual(fourOfFive.body.reasons, ['3 of 5 answers were correct; 80 % are needed']);
    assert.equal(fourOfFive.body.locked_until, null);
    const retakeUntil = Date.parse(fourOfFive.body.retake_until);
    assert.ok(Math.abs(retakeUntil - Date.now() - 24 * 3600_000) < 60_000, 'a retake within 24 hours');
    const [failed] = await waitForEvent(s.id, 'kba_failed');
    assert.equal(failed.data.attempt, 1);
    assert.equal(failed.data.correct, 3);
    assert.equal(failed.data.retake_until, fourOfFive.body.retake_until);

    const state = (await signingView(s.token)).body.identity;
    assert.deepEqual([state.status, state.attempts, state.attempts_left], ['pending', 1, 1]);
    const retake = (await startKba(s.token)).body;
    assert.equal(retake.attempt, 2);
    const repeated = retake.questions.filter((q: any) => first.questions.some((f: any) => f.id === q.id));
    assert.ok(
      repeated.length <= 2,
      `at least 60 % new questions; repeated ${repeated.map((q: any) => q.id)}`,
    );

    const wrong = await answerKba(s.token, retake.check_id, { answers: answers(retake, factsOf(person), 0) });
    assert.equal(wrong.body.outcome, 'failed');
    const lockedUntil = Date.parse(wrong.body.locked_until);
    assert.ok(Math.abs(lockedUntil - Date.now() - 24 * 3600_000) < 60_000, 'locked for 24 hours');
    const [locked] = await waitForEvent(s.id, 'participant_locked_out');
    assert.deepEqual(locked.data, {
      role: 'signer',
      index: 0,
      email: person.email,
      method: 'kba',
      locked_until: wrong.body.locked_until,
    });

    const third = await startKba(s.token);
    assert.equal(third.status, 409, third.text);
    assert.match(third.body.response_message, /locked after too many failed attempts; try again after /);
    assert.ok(
      Number(third.headers.get('retry-after')) > 86_000,
      `Retry-After ${third.headers.get('retry-after')}`,
    );
    const view = (await signingView(s.token)).body;
    assert.equal(view.step, 'locked_out');
    assert.equal(view.identity.status, 'locked_out');
    await recordHistory('session-identity-kba-locked-out', `session-${s.id}`);
    const rows = await query(
      'SELECT attempt, outcome, correct, locked_until FROM identity_checks WHERE session_id = $1 ORDER BY attempt',
      [s.id],
    );
    assert.deepEqual(
      rows.map((r) => [r.attempt, r.outcome, r.correct, r.locked_until !== null]),
      [
        [1, 'failed', 3, false],
        [2, 'failed', 0, true],
      ],
    );
  });

  it('a KBA quiz left unanswered past its time limit fails without a score, and the event says so', async () => {
    const person = texan();
    const s = await session([person]);
    await join(s.token);
    const env = testEnvironment();
    const hasty = await startSecondApp({
      identity: { ...env.config.identity, policy: { ...env.config.identity.policy, kbaTimeLimitMs: 1_000 } },
    });
    try {
      const started = await fetch(`${hasty.url}/sign/${s.token}/identity/kba`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      assert.equal(started.status, 200);
      const quiz = (await started.json()) as { deadline: string };
      await eventually(
        async () => Date.now() > Date.parse(quiz.deadline),
        Boolean,
        'the quiz deadline to pass',
      );
    } finally {
      await hasty.close();
    }
    const retake = (await startKba(s.token)).body;
    assert.equal(retake.attempt, 2, 'the abandoned quiz counted as the first attempt');
    const [failed] = await waitForEvent(s.id, 'kba_failed');
    assert.equal(failed.data.attempt, 1);
    assert.deepEqual(failed.data.reasons, ['no answers within the 1 s time limit']);
    assert.ok(!('correct' in failed.data) && !('total' in failed.data), JSON.stringify(failed.data));
  });

  it('ID check: sandbox identities that fail credential analysis or the face match; photos too small are refused unscored', async () => {
    const s = await session([
      signer(0, {
        authentication_type: 'biometrics',
        email: `ida+id-rejected-${crypto.randomUUID().slice(0, 4)}@example.com`,
      }),
      signer(1, {
        authentication_type: 'biometrics',
        email: `fay+face-mismatch-${crypto.randomUUID().slice(0, 4)}@example.com`,
      }),
    ]);
    const [rejectedToken, mismatchToken] = s.created.signing_urls.map((u: any) => tokenOf(u.bn_signing_url));
    for (const token of [rejectedToken, mismatchToken]) assert.equal((await join(token)).status, 200);
    const kba = await startKba(rejectedToken);
    assert.equal(kba.status, 409);
    assert.equal(kba.body.response_message, "This participant's identity check is an ID check");

    const images = { id_front: ID_FRONT.toString('base64'), selfie: SELFIE.toString('base64') };
    const rejected = await idCheck(rejectedToken, images);
    assert.equal(rejected.status, 200, rejected.text);
    assert.deepEqual([rejected.body.outcome, rejected.body.document], ['failed', 'rejected']);
    const mismatch = await idCheck(mismatchToken, images);
    assert.deepEqual([mismatch.body.outcome, mismatch.body.face], ['failed', 'no_match']);
    // A photo too small to read is the page's to retake: refused before the provider, no attempt used.
    const tiny = await idCheck(mismatchToken, {
      ...images,
      id_front: photo(120, 80, 'ID').toString('base64'),
    });
    assert.equal(tiny.status, 422, tiny.text);
    assert.equal(
      tiny.body.response_message,
      'Retake the photo: the front of the ID is 120×80 pixels; it must be at least 300×190',
    );
    const again = await idCheck(mismatchToken, images);
    assert.deepEqual([again.body.attempt, again.body.outcome], [2, 'failed']);
    assert.ok(again.body.locked_until, 'the second failure of the round locks out');

    const failures = await waitForEvent(s.id, 'id_check_failed', 3);
    assert.deepEqual(
      failures.map((e) => [e.data.index, e.data.attempt, e.data.reasons[0]]).sort(),
      [
        [0, 1, "the ID's security features could not be verified"],
        [1, 1, "the selfie does not match the ID's portrait"],
        [1, 2, "the selfie does not match the ID's portrait"],
      ].sort(),
    );
    await waitForEvent(s.id, 'participant_locked_out');

    const notImage = await idCheck(rejectedToken, { ...images, selfie: 'not base64!' });
    assert.equal(notImage.status, 400, notImage.text);
  });

  it('skip: nothing is asked, the start needs no check, and the journal says who waived it', async () => {
    const s = await session([signer(0, { authentication_type: 'skip' })]);
    await join(s.token);
    const view = (await signingView(s.token)).body;
    assert.deepEqual([view.step, view.identity.method, view.identity.status], ['waiting', 'skip', 'waived']);
    assert.equal(
      (await startKba(s.token)).body.response_message,
      'No identity check is asked of this participant',
    );
    assert.equal((await action(s.apiKey, s.id, 'start')).status, 200);
    const [waiver] = await query(
      'SELECT method, outcome, allowed_by FROM identity_checks WHERE session_id = $1',
      [s.id],
    );
    assert.deepEqual(waiver, {
      method: 'skip',
      outcome: 'skipped',
      allowed_by: `account:${s.account.account_id}`,
    });
  });

  it('an invited witness with need_id_auth checks their ID before the session can start', async () => {
    const person = texan();
    const s = await session([person], {
      witnesses: {
        invited_witness_details: [
          { email: `wit-${crypto.randomUUID().slice(0, 6)}@example.com`, need_id_auth: true },
        ],
      },
    });
    const witnessUrl = s.created.witnessess_signing_urls[0].bn_signing_url;
    await join(s.token);
    await join(tokenOf(witnessUrl));
    await passKba(s.created.bn_signing_url, factsOf(person));
    const refused = await action(s.apiKey, s.id, 'start');
    assert.equal(
      refused.body.response_message,
      'Session cannot be started before every participant has verified their identity (1 of 2)',
    );
    await passIdCheck(witnessUrl);
    await waitForEvent(s.id, 'identity_verified', 2);
    assert.equal((await action(s.apiKey, s.id, 'start')).status, 200);
  });

  it('same-device signing: the host verifies each signer on their device; only the host may name another', async () => {
    const host = texan();
    const guest = texan({ email: `guest-${crypto.randomUUID().slice(0, 6)}@example.com`, first_name: 'Gus' });
    const s = await session([host, { ...guest }], {
      session_configurations: { same_device_signing_mode: 'all' },
    });
    const guestToken = tokenOf(s.created.signing_urls[1].bn_signing_url);
    await join(s.token);
    const images = { id_front: ID_FRONT.toString('base64'), selfie: SELFIE.toString('base64') };
    for (const byGuest of [
      await startKba(guestToken, { signer_index: 0 }),
      await answerKba(guestToken, crypto.randomUUID(), { answers: [], signer_index: 0 }),
      await idCheck(guestToken, { ...images, signer_index: 0 }),
    ])
      assert.equal(byGuest.status, 422, byGuest.text);
    const view = (await signingView(s.token)).body;
    assert.deepEqual(
      view.same_device_signers.map((x: any) => [x.index, x.identity.status]),
      [
        [0, 'pending'],
        [1, 'pending'],
      ],
    );
    await passKba(s.created.bn_signing_url, factsOf(host));
    assert.equal((await signingView(s.token)).body.step, 'verify', 'the guest has not verified yet');
    await passKba(s.created.bn_signing_url, factsOf(guest), 1);
    assert.equal((await signingView(s.token)).body.step, 'waiting');
    await waitForEvent(s.id, 'identity_verified', 2);
    assert.equal((await action(s.apiKey, s.id, 'start')).status, 200);
    await recordHistory('session-identity-same-device', `session-${s.id}`);
  });

  it('a network witness of a session with service_witness_id_auth_required checks their ID through their own sign-in', async () => {
    const notary = await networkNotary('NV');
    await networkWitness();
    const team = await teamAccount();
    const created = await onDemandSession(team.apiKey, 'NV', {
      witnesses: { number_of_service_witnesses: 1, service_witness_id_auth_required: true },
    });
    await signerJoins(created);
    const assigned = await waitForSession(team.apiKey, created.bn_session_id, (x) =>
      x.participants.some((p: any) => p.role === 'witness'),
    );
    const witness = await signIn(assigned.participants.find((p: any) => p.role === 'witness').email);
    const listed = (await mySessions(witness.token)).body.sessions[0];
    assert.deepEqual(
      listed.witnesses.map((w: any) => [w.you, w.identity]),
      [[true, 'not_verified']],
    );
    assert.equal((await meAction(witness.token, created.bn_session_id, 'join')).status, 200);
    await eventually(
      async () => (await mySessions(notary.token)).body.sessions,
      (list: any[]) => list.some((x) => x.bn_session_id === created.bn_session_id),
      'the offer',
    );
    assert.equal((await meAction(notary.token, created.bn_session_id, 'accept')).status, 200);
    const startPath = `/api/integrationsv2/sessions/${created.bn_session_id}/start`;
    const refused = await request(startPath, { auth: notary.token, body: {} });
    assert.equal(
      refused.body.response_message,
      'Session cannot be started before every participant has verified their identity (0 of 1)',
    );
    const byNotary = await request(
      `/api/integrationsv2/me/sessions/${created.bn_session_id}/identity/id_check`,
      {
        auth: notary.token,
        body: { id_front: ID_FRONT.toString('base64'), selfie: SELFIE.toString('base64') },
      },
    );
    assert.equal(byNotary.status, 403, 'only the witness checks their own ID');
    const stranger = await signIn(await networkWitness());
    const notTheirs = await request(
      `/api/integrationsv2/me/sessions/${created.bn_session_id}/identity/id_check`,
      {
        auth: stranger.token,
        body: { id_front: ID_FRONT.toString('base64'), selfie: SELFIE.toString('base64') },
      },
    );
    assert.deepEqual([notTheirs.status, notTheirs.body.response_message], [404, 'Session not found']);
    const checked = await request(
      `/api/integrationsv2/me/sessions/${created.bn_session_id}/identity/id_check`,
      {
        auth: witness.token,
        body: { id_front: ID_FRONT.toString('base64'), selfie: SELFIE.toString('base64') },
      },
    );
    assert.equal(checked.status, 200, checked.text);
    assert.equal(checked.body.outcome, 'passed');
    const seen = (await mySessions(notary.token)).body.sessions.find(
      (x: any) => x.bn_session_id === created.bn_session_id,
    );
    assert.deepEqual(
      seen.witnesses.map((w: any) => [w.you, w.identity]),
      [[false, 'verified']],
    );
    assert.equal((await request(startPath, { auth: notary.token, body: {} })).status, 200);
  });

  it('on demand: the network is asked for a notary only once the signer has verified', async () => {
    const notary = await networkNotary('NM');
    const team = await teamAccount();
    const person = texan({ state: 'NM' });
    const created = await onDemandSession(team.apiKey, 'NM', { all_signers: [person] });
    assert.equal((await signerJoins(created)).status, 200);
    const offered = async () =>
      (await mySessions(notary.token)).body.sessions.some(
        (x: any) => x.bn_session_id === created.bn_session_id,
      );
    assert.equal((await signingView(tokenOf(created.bn_signing_url))).body.step, 'verify');
    // An unverified signer's session would be offered within milliseconds if it were offered at all.
    await letTimePass(1_500);
    assert.equal(await offered(), false, 'joined but not verified: nobody is asked');
    await passKba(created.bn_signing_url, { ...person, state_name: 'New Mexico' } as KnownFacts);
    await eventually(offered, Boolean, 'the session to be offered once its signer verified');
    assert.equal((await meAction(notary.token, created.bn_session_id, 'accept')).status, 200);
    await recordHistory('session-identity-then-network', `session-${created.bn_session_id}`);
  });
});
