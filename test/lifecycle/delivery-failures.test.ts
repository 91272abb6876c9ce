import assert from 'node:assert/strict';
import { addTeamNotary, createTestAccount } from '../support/accounts';
import { admin } from '../support/adminCli';
import { testEnvironment } from '../support/environment';
import { request } from '../support/http';
import { action, createSession, sessionBody, signer, tokenOf, waitForSession } from '../support/sessions';
import { subscribe, WebhookReceiver } from '../support/webhookReceiver';
import { recordHistory } from '../support/histories';
import { eventually } from '../support/eventually';
import { damageStoredPdf } from '../support/damagedDocuments';
import { downloadAll, pdftotext, removeTempFiles, squash } from '../documents/helpers';

const receiver = new WebhookReceiver();
let receiverUrl: string;

async function accountWithHook(events: string[]) {
  const account = await createTestAccount();
  await subscribe(account.api_key, receiverUrl, events);
  const notary = await addTeamNotary(account.account_id);
  return { account, notary };
}

async function outbox(sessionId: string) {
  const [rows] = (await testEnvironment().runtime.sequelize.query(
    'SELECT to_email, kind, state, error FROM email_outbox WHERE session_id = $1 ORDER BY to_email',
    { bind: [sessionId] },
  )) as [Array<{ to_email: string; kind: string; state: string; error: string | null }>, unknown];
  return rows;
}

async function waitForOutbox(
  sessionId: string,
  predicate: (rows: Awaited<ReturnType<typeof outbox>>) => boolean,
) {
  return eventually(() => outbox(sessionId), predicate, 'the outbox in the expected state');
}

describe('delivery failures', function () {
  this.timeout(60_000);
  before(async () => {
    receiverUrl = await receiver.start();
  });
  after(() => {
    removeTempFiles();
    return receiver.stop();
  });

  it('a recipient the mail server refuses for good is bounced and reported; the others are mailed and the session goes on', async () => {
    const { account, notary } = await accountWithHook(['email_bounced', 'notary_assigned']);
    const bouncing = `bounce-${Date.now()}@example.com`;
    const second = signer(1);
    const created = await createSession(
      account.api_key,
      await sessionBody({
        session_notary_email: notary.email,
        all_signers: [signer(0, { email: bouncing }), second],
      }),
    );
    assert.equal(created.status, 200);
    const id = created.body.bn_session_id;

    const rows = await waitForOutbox(id, (r) => r.every((row) => ['sent', 'bounced'].includes(row.state)));
    const bounced = rows.find((r) => r.to_email === bouncing)!;
    assert.equal(bounced.state, 'bounced');
    assert.match(bounced.error!, /550/);
    assert.equal(rows.find((r) => r.to_email === second.email)!.state, 'sent');
    assert.equal(testEnvironment().smtp.to(second.email).length, 1);

    const [event] = (
      await receiver.waitFor((r) =>
        r.some((w) => w.json.bn_session_id === id && w.json.event === 'email_bounced'),
      )
    ).filter((w) => w.json.bn_session_id === id && w.json.event === 'email_bounced');
    assert.deepEqual(
      { ...event.json.data, reason: undefined },
      { kind: 'invitation', role: 'signer', index: 0, email: bouncing, reason: undefined },
    );
    assert.match(event.json.data.reason, /No such mailbox/);
    await recordHistory('session-mail-bounced', `session-${id}`);
  });

  it('a cancel does not wait on a mail server that keeps deferring a recipient', async () => {
    const { account, notary } = await accountWithHook(['session_cancelled']);
    const created = await createSession(
      account.api_key,
      await sessionBody({
        session_notary_email: notary.email,
        all_signers: [signer(0, { email: `tempfail-${Date.now()}@example.com` })],
      }),
    );
    const id = created.body.bn_session_id;
    // The invitation has been deferred at least once, and is being retried.
    await waitForOutbox(id, (rows) => rows.some((r) => r.state === 'pending' && /451/.test(r.error ?? '')));

    const began = Date.now();
    const cancel = await action(account.api_key, id, 'cancel');
    assert.equal(cancel.status, 200, JSON.stringify(cancel.body));
    assert.equal(cancel.body.status, 'cancelled');
    assert.ok(Date.now() - began < 5_000, `the cancel took ${Date.now() - began} ms`);
    await receiver.waitFor((r) =>
      r.some((w) => w.json.bn_session_id === id && w.json.event === 'session_cancelled'),
    );
    await recordHistory('session-cancelled-while-mail-deferred', `session-${id}`);
  });

  it('a document that cannot be notarized leaves the session failed with the reason, until an operator retries it', async () => {
    const { account, notary } = await accountWithHook(['documents_failed', 'documents_released']);
    const created = await createSession(
      account.api_key,
      await sessionBody({ session_notary_email: notary.email }),
    );
    const id = created.body.bn_session_id;
    await waitForSession(account.api_key, id, (s) => s.status === 'ready');
    assert.equal(
      (await request(`/sign/${tokenOf(created.body.bn_signing_url)}/join`, { method: 'POST' })).status,
      200,
    );
    assert.equal((await action(account.api_key, id, 'start')).status, 200);

    const repair = await damageStoredPdf(id);

    assert.equal((await action(account.api_key, id, 'complete')).status, 200);
    const failed = await waitForSession(account.api_key, id, (s) => s.documents_status === 'failed');
    assert.equal(failed.status, 'completed');
    assert.match(failed.documents[0].finalization_error, /could not be notarized after 2 attempts/);
    const whileFailed = await request(`/api/integrationsv2/sessions/${id}/documents`, {
      auth: account.api_key,
    });
    assert.equal(whileFailed.status, 409);
    assert.match(whileFailed.body.response_message, /could not be prepared/);
    const [event] = (
      await receiver.waitFor((r) =>
        r.some((w) => w.json.bn_session_id === id && w.json.event === 'documents_failed'),
      )
    ).filter((w) => w.json.bn_session_id === id && w.json.event === 'documents_failed');
    assert.equal(event.json.data.documents[0].document_id, failed.documents[0].document_id);
    assert.match(event.json.data.documents[0].reason, /could not be notarized/);

    // The notary renews (a new number, a later expiry) before the operator's retry: the certificate still
    // states the commission of the act.
    await testEnvironment().runtime.sequelize.query(
      `UPDATE notary_commissions SET commission_number = 'TX-RENEWED', commission_expires_on = '2039-12-31'
        WHERE user_id = $1`,
      { bind: [notary.userId] },
    );
    await repair();
    const retried = await admin(['retry-finalization', '--session', id]);
    assert.equal(retried.code, 0, retried.stderr);
    assert.equal(retried.json.bn_session_id, id);
    assert.notEqual(retried.json.documents_status, 'failed');

    const released = await waitForSession(account.api_key, id, (s) => s.documents_status === 'released');
    assert.equal(released.documents[0].finalization_error, undefined);
    await receiver.waitFor((r) =>
      r.some((w) => w.json.bn_session_id === id && w.json.event === 'documents_released'),
    );
    const signedDocuments = await request(`/api/integrationsv2/sessions/${id}/documents`, {
      auth: account.api_key,
    });
    assert.equal(signedDocuments.status, 200);
    assert.equal(signedDocuments.body.documents.length, 1);
    const [file] = (await downloadAll(account.api_key, id)).files;
    const certificate = squash(await pdftotext(file.bytes, 2));
    assert.ok(certificate.includes('Commission number: TX-900001'), certificate);
    assert.ok(certificate.includes('Commission expires: 2035-12-31'), certificate);
    assert.ok(!certificate.includes('TX-RENEWED'), certificate);

    await recordHistory('session-documents-failed', `session-${id}`);
    const again = await admin(['retry-finalization', '--session', id]);
    assert.equal(again.code, 1);
    assert.equal(again.json.error, 'Documents cannot be retried while released');
  });
});
