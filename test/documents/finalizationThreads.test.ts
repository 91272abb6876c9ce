import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { addTeamNotary, createTestAccount } from '../support/accounts';
import { b64 } from '../support/documents';
import { testEnvironment } from '../support/environment';
import { manyNamesPdf } from '../support/hostileDocuments';
import { startOwnQueue, type SecondApp } from '../support/secondApp';
import { action, joinSession, sessionBody, waitForSession } from '../support/sessions';

describe('notarized PDFs are made on finalization threads, each with its own heap', function () {
  this.timeout(120_000);
  const queue = `finalization-${crypto.randomUUID()}`;
  const memoryMb = 64;
  let app: SecondApp;
  let apiKey: string;
  let notaryEmail: string;

  before(async () => {
    // A worker of its own, whose finalization threads have a small heap, and an API that starts the
    // sessions on its task queue; the rest goes through the suite's API.
    app = await startOwnQueue(queue, { finalizationWork: { threads: 1, memoryMb } });
    const account = await createTestAccount();
    apiKey = account.api_key;
    notaryEmail = (await addTeamNotary(account.account_id)).email;
  });
  after(() => app?.close());

  /** A session with these PDFs taken to its completion; the session once its documents are settled. */
  async function completed(pdfs: Buffer[]) {
    const res = await fetch(`${app.url}/api/integrationsv2/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify(
        await sessionBody({
          session_notary_email: notaryEmail,
          session_documents: pdfs.map((pdf, i) => ({ name: `deed-${i}.pdf`, base64Doc: b64(pdf) })),
        }),
      ),
    });
    const created = (await res.json()) as { bn_session_id: string; bn_signing_url: string };
    assert.equal(res.status, 200, JSON.stringify(created));
    const id = created.bn_session_id;
    await waitForSession(apiKey, id, (s) => s.status === 'ready');
    assert.equal((await joinSession(created.bn_signing_url)).status, 200);
    assert.equal((await action(apiKey, id, 'start')).status, 200);
    assert.equal((await action(apiKey, id, 'complete')).status, 200);
    return waitForSession(apiKey, id, (s) => ['released', 'failed'].includes(s.documents_status), 60_000);
  }

  it('a document that outgrows its thread fails its own notarization, with the reason; the same worker notarizes the next session', async () => {
    const heavy = await completed([manyNamesPdf(250_000)]);
    assert.equal(heavy.documents_status, 'failed');
    assert.match(
      heavy.documents[0].finalization_error,
      /could not be notarized after 2 attempts: the document needs more memory than the service allows for one document$/,
    );

    const next = await completed([manyNamesPdf(10)]);
    assert.equal(next.documents_status, 'released');
  });

  it('name-heavy documents one after another are each notarized at their first attempt: what one leaves does not fail the next', async () => {
    // Each leaves ~15 MB of names in its thread; five in a 64 MB thread that kept them would run out of memory.
    const session = await completed([1, 2, 3, 4, 5].map(() => manyNamesPdf(40_000)));
    assert.equal(session.documents_status, 'released');
    const history = await testEnvironment()
      .runtime.temporal.client.workflow.getHandle(`session-${session.bn_session_id}`)
      .fetchHistory();
    // A retried activity's started event carries the attempt that finally ran.
    const attempts = history
      .events!.filter((e) => e.activityTaskStartedEventAttributes)
      .map((e) => e.activityTaskStartedEventAttributes!.attempt);
    assert.ok(attempts.length >= 4, `${attempts.length} activities`);
    assert.ok(
      attempts.every((attempt) => attempt === 1),
      `attempts: ${attempts.join(', ')}`,
    );
  });
});
