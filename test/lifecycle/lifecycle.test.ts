import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { addTeamNotary, createTestAccount } from '../support/accounts';
import { request } from '../support/http';
import {
  action,
  createSession,
  joinSession as join,
  sessionBody,
  signer,
  teamNotarySession,
  tokenOf,
  waitForSession,
} from '../support/sessions';
import { WebhookReceiver } from '../support/webhookReceiver';
import { SESSION_COURSE_EVENTS } from '../support/sessionCourse';
import { testEnvironment } from '../support/environment';
import { recordHistory } from '../support/histories';
import { startUpdate } from '../../core/session/messages';
import { SessionStatusAttribute } from '../../core/temporal/searchAttributes';
import { eventually } from '../support/eventually';

async function registerWebhook(apiKey: string, url: string, events?: string[]) {
  const res = await request('/api/integrationsv2/webhooks', {
    auth: apiKey,
    body: { url, ...(events ? { events } : {}) },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string; secret: string };
}

/** The e-mails to one address, once `count` of them have arrived over SMTP. */
function waitForMail(address: string, count: number) {
  return eventually(
    () => testEnvironment().smtp.to(address),
    (mails) => mails.length >= count,
    `${count} e-mail(s) to ${address}`,
    { intervalMs: 50 },
  );
}

async function outbox(sessionId: string) {
  const [rows] = await testEnvironment().runtime.sequelize.query(
    'SELECT kind, to_email, state, body FROM email_outbox WHERE session_id = $1 ORDER BY kind, to_email',
    { bind: [sessionId] },
  );
  return rows as Array<{ kind: string; to_email: string; state: string; body: string }>;
}

describe('session lifecycle', () => {
  let receiver: WebhookReceiver;
  let url: string;

  beforeEach(async () => {
    receiver = new WebhookReceiver();
    url = await receiver.start();
  });
  afterEach(() => receiver.stop());

  it('now with a team notary: ready → join → start → complete → documents released, each event signed', async () => {
    const account = await createTestAccount();
    const { secret } = await registerWebhook(account.api_key, url);
    const notary = await addTeamNotary(account.account_id);
    const created = await createSession(
      account.api_key,
      await sessionBody({ session_notary_email: notary.email }),
    );
    const id = created.body.bn_session_id;
    const ready = await waitForSession(account.api_key, id, (s) => s.status === 'ready');
    assert.deepEqual(ready.notary, { email: notary.email, name: 'Nora Notary', source: 'team' });

    assert.equal((await join(created.body.bn_signing_url)).status, 200);
    const started = await action(account.api_key, id, 'start');
    assert.equal(started.status, 200, JSON.stringify(started.body));
    assert.deepEqual(started.body, {
      response: 'Pass',
      bn_session_id: id,
      status: 'in_progress',
      documents_status: 'pending',
    });
    const completed = await action(account.api_key, id, 'complete');
    assert.equal(completed.body.status, 'completed');
    const done = await waitForSession(account.api_key, id, (s) => s.documents_status === 'released');
    assert.ok(done.completed_at);

    await receiver.waitFor((r) => SESSION_COURSE_EVENTS.every((e) => r.some((x) => x.json.event === e)));
    const verifier = new Webhook(secret);
    for (const hook of receiver.received) {
      // Verified with the standardwebhooks library, not the service's own code.
      const payload = verifier.verify(hook.body, {
        'webhook-id': hook.headers['webhook-id'] as string,
        'webhook-timestamp': hook.headers['webhook-timestamp'] as string,
        'webhook-signature': hook.headers['webhook-signature'] as string,
      }) as any;
      assert.equal(payload.bn_session_id, id);
      assert.equal(payload.notarization_id, created.body.notarization_id);
      assert.equal(hook.headers['webhook-id'], payload.id);
      assert.match(payload.id, /^evt_/);
      assert.ok(payload.created_at && payload.status && payload.data);
    }
    const joinEvent = receiver.events('join_session')[0].json;
    assert.deepEqual(joinEvent.data, {
      role: 'signer',
      index: 0,
      email: (await request(`/api/integrationsv2/sessions/${id}`, { auth: account.api_key })).body
        .participants[0].email,
    });
    assert.equal(receiver.events('session_started')[0].json.status, 'in_progress');

    // Sent once each over real SMTP: the invitation with the signer's own link, then the completion notice.
    const signerEmail = (await request(`/api/integrationsv2/sessions/${id}`, { auth: account.api_key })).body
      .participants[0].email;
    const mails = await waitForMail(signerEmail, 2);
    assert.deepEqual(mails.map((m) => m.subject).sort(), [
      'You are invited to a notarization session',
      'Your notarization session is complete',
    ]);
    assert.ok(
      mails
        .find((m) => m.subject.startsWith('You are invited'))!
        .text.includes(created.body.full_signing_url),
    );
    // The completion notice carries a working link to each notarized document.
    const completion = mails.find((m) => m.subject.startsWith('Your notarization session is complete'))!;
    const link = /https:\/\/notary\.test(\/api\/integrationsv2\/signed_documents\/\S+) \(until (.+)\)/.exec(
      completion.text,
    );
    assert.ok(link, completion.text);
    // The stated expiry is the link's own, to the minute, in UTC.
    const expires = Number(new URL(link[1], 'https://notary.test').searchParams.get('expires'));
    assert.equal(link[2], `${new Date(expires * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`);
    const pdf = await request(link[1]);
    assert.equal(pdf.status, 200);
    assert.equal(pdf.headers.get('content-type'), 'application/pdf');
    assert.deepEqual(
      (await outbox(id)).map((m) => [m.kind, m.state]),
      [
        ['completion', 'sent'],
        ['invitation', 'sent'],
      ],
    );
    await recordHistory('session-completed', `session-${id}`);
  });

  it('refuses actions out of order with 409 and a reason', async () => {
    const { account, created, id } = await teamNotarySession();
    await waitForSession(account.api_key, id, (s) => s.status === 'ready');
    const before = await action(account.api_key, id, 'start');
    assert.equal(before.status, 409);
    assert.equal(before.body.response_message, 'Session cannot be started before a signer has joined');
    assert.equal(
      (await action(account.api_key, id, 'complete')).body.response_message,
      'Session cannot be completed while ready',
    );
    assert.equal((await action(account.api_key, id, 'pretagged')).status, 409);
    assert.equal((await action(account.api_key, id, 'release_documents')).status, 409);
    await join(created.body.bn_signing_url);
    assert.equal((await action(account.api_key, id, 'start')).status, 200);
    // The workflow itself, not only the API's recorded copy, takes a retried start as done.
    const handle = testEnvironment().runtime.temporal.client.workflow.getHandle(`session-${id}`);
    assert.equal((await handle.executeUpdate(startUpdate)).status, 'in_progress');
    // A retried start (its first answer lost) learns that the session started.
    const again = await action(account.api_key, id, 'start');
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.status, 'in_progress');
    assert.equal((await action(account.api_key, id, 'complete')).status, 200);
    const recompleted = await action(account.api_key, id, 'complete');
    assert.equal(recompleted.status, 200, recompleted.text);
    assert.equal(recompleted.body.status, 'completed');
    const lateStart = await action(account.api_key, id, 'start');
    assert.equal(lateStart.status, 200, `a start retried after completion happened too: ${lateStart.text}`);
    assert.equal(lateStart.body.status, 'completed');
    assert.equal((await action(account.api_key, id, 'pretagged')).status, 409);
    const cancel = await action(account.api_key, id, 'cancel');
    assert.equal(cancel.status, 409);
    assert.match(cancel.body.response_message, /completed/);
    await recordHistory('session-out-of-order-actions', `session-${id}`);
  });

  it('notarize_later waits for session_timing, then finds its notary', async () => {
    const account = await createTestAccount();
    const notary = await addTeamNotary(account.account_id);
    const startAt = new Date(Date.now() + 3_000).toISOString();
    const created = await createSession(
      account.api_key,
      await sessionBody({
        session_notary_email: notary.email,
        notarization_timing_type: 'notarize_later',
        session_timing: startAt,
      }),
    );
    const id = created.body.bn_session_id;
    const scheduled = await waitForSession(account.api_key, id, (s) => s.status === 'scheduled');
    assert.equal(scheduled.session_timing, startAt);
    // Parked on its timer, the workflow recorded no patch marker and no TemporalChangeVersion: no versioned
    // branches yet (docs/workflow-versioning.md).
    const { events } = await eventually(
      () => testEnvironment().runtime.temporal.client.workflow.getHandle(`session-${id}`).fetchHistory(),
      (history) => history.events!.some((e) => e.timerStartedEventAttributes),
      'the workflow parked on its timer',
    );
    const beforeTimer = events!.slice(
      0,
      events!.findIndex((e) => e.timerStartedEventAttributes),
    );
    assert.equal(
      beforeTimer.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch').length,
      0,
    );
    const changeVersions = beforeTimer.flatMap((e) => {
      const field =
        e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields
          ?.TemporalChangeVersion;
      return field ? [JSON.parse(Buffer.from(field.data!).toString())] : [];
    });
    assert.deepEqual(changeVersions, []);
    // Its status attribute is the one the API started it with: entering `scheduled` upserted nothing.
    assert.deepEqual(
      beforeTimer.flatMap((e) =>
        e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.SessionStatus
          ? [e.eventId]
          : [],
      ),
      [],
    );
    const handle = testEnvironment().runtime.temporal.client.workflow.getHandle(`session-${id}`);
    assert.equal((await handle.describe()).typedSearchAttributes.get(SessionStatusAttribute), 'scheduled');
    assert.equal((await join(created.body.bn_signing_url)).status, 409);
    const ready = await waitForSession(account.api_key, id, (s) => s.status === 'ready');
    assert.ok(Date.parse(ready.updated_at) >= Date.parse(startAt));
    // The database has the status while the workflow task that upserts it is still running its steps.
    await eventually(
      async () => (await handle.describe()).typedSearchAttributes.get(SessionStatusAttribute),
      (status) => status === 'ready',
      'the SessionStatus attribute ready',
    );
    assert.equal((await join(created.body.bn_signing_url)).status, 200);
    await recordHistory('session-notarize-later', `session-${id}`);
  });

  it('holds invitations until the documents are marked pretagged', async () => {
    const account = await createTestAccount();
    const witnessEmail = `witness-${Date.now()}@example.com`;
    const notary = await addTeamNotary(account.account_id);
    const created = await createSession(
      account.api_key,
      await sessionBody({
        session_notary_email: notary.email,
        send_invite_after_pretagging: true,
        witnesses: { invited_witness_details: [{ email: witnessEmail }] },
      }),
    );
    const id = created.body.bn_session_id;
    await waitForSession(account.api_key, id, (s) => s.status === 'awaiting_pretag');
    assert.equal(testEnvironment().smtp.to(witnessEmail).length, 0, 'nothing is sent during the pretag hold');
    assert.deepEqual(
      (await outbox(id)).map((m) => m.state),
      ['held', 'held'],
    );
    const pretagged = await action(account.api_key, id, 'pretagged');
    assert.equal(pretagged.status, 200, JSON.stringify(pretagged.body));
    assert.notEqual(pretagged.body.status, 'awaiting_pretag');
    await waitForSession(account.api_key, id, (s) => s.status === 'ready');
    assert.equal((await waitForMail(witnessEmail, 1)).length, 1);
    const mails = await outbox(id);
    assert.deepEqual(
      mails.map((m) => [m.to_email === witnessEmail ? 'witness' : 'signer', m.kind, m.state]).sort(),
      [
        ['signer', 'invitation', 'sent'],
        ['witness', 'invitation', 'sent'],
      ],
    );
    await recordHistory('session-pretag-hold', `session-${id}`);
  });

  it('expires an unfinished session at auto_expire_session_on; its links stop working', async () => {
    const account = await createTestAccount();
    await registerWebhook(account.api_key, url, ['session_expired']);
    const notary = await addTeamNotary(account.account_id);
    const created = await createSession(
      account.api_key,
      await sessionBody({
        session_notary_email: notary.email,
        session_configurations: { auto_expire_session_on: new Date(Date.now() + 2_500).toISOString() },
      }),
    );
    const id = created.body.bn_session_id;
    await waitForSession(account.api_key, id, (s) => s.status === 'expired');
    const [expired] = await receiver.waitFor((r) => r.length >= 1);
    assert.equal(expired.json.event, 'session_expired');
    assert.equal(expired.json.status, 'expired');
    assert.equal((await join(created.body.bn_signing_url)).status, 409);
    assert.equal(
      (
        await request(`/sign/${tokenOf(created.body.bn_signing_url)}`, {
          headers: { accept: 'application/json' },
        })
      ).status,
      410,
    );
    assert.equal((await action(account.api_key, id, 'start')).status, 409);
    await recordHistory('session-expired', `session-${id}`);
  });

  it('cancels before completion and emits session_cancelled', async () => {
    const account = await createTestAccount();
    await registerWebhook(account.api_key, url, ['session_cancelled']);
    const notary = await addTeamNotary(account.account_id);
    const created = await createSession(
      account.api_key,
      await sessionBody({ session_notary_email: notary.email }),
    );
    const id = created.body.bn_session_id;
    await waitForSession(account.api_key, id, (s) => s.status === 'ready');
    const cancelled = await action(account.api_key, id, 'cancel');
    assert.deepEqual(cancelled.body, {
      response: 'Pass',
      bn_session_id: id,
      status: 'cancelled',
      documents_status: 'pending',
    });
    await receiver.waitFor((r) => r.length >= 1);
    const again = await action(account.api_key, id, 'cancel');
    assert.equal(again.status, 200, `a retried cancel learns it happened: ${again.text}`);
    assert.equal(again.body.status, 'cancelled');
    assert.equal(receiver.received.length, 1, 'and emits nothing twice');
    await recordHistory('session-cancelled', `session-${id}`);
  });

  it('notary_manual holds the documents until release_documents', async () => {
    const account = await createTestAccount();
    await registerWebhook(account.api_key, url, ['documents_released']);
    const notary = await addTeamNotary(account.account_id);
    const created = await createSession(
      account.api_key,
      await sessionBody({
        session_notary_email: notary.email,
        final_documents_delivery_mode: 'notary_manual',
        all_signers: [signer(0), signer(1)],
      }),
    );
    const id = created.body.bn_session_id;
    await waitForSession(account.api_key, id, (s) => s.status === 'ready');
    await join(created.body.signing_urls[1].bn_signing_url);
    await action(account.api_key, id, 'start');
    await action(account.api_key, id, 'complete');
    await waitForSession(account.api_key, id, (s) => s.documents_status === 'held');
    assert.equal(receiver.received.length, 0);
    const released = await action(account.api_key, id, 'release_documents');
    assert.equal(released.status, 200);
    assert.equal(released.body.documents_status, 'released');
    await receiver.waitFor((r) => r.length >= 1);
    const again = await action(account.api_key, id, 'release_documents');
    assert.equal(again.status, 200, `a retried release learns it happened: ${again.text}`);
    assert.equal(again.body.documents_status, 'released');
    assert.equal(receiver.received.length, 1, 'and emits nothing twice');
    await recordHistory('session-notary-manual-release', `session-${id}`);
  });
});
