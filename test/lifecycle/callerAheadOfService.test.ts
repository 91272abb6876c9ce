import crypto from 'node:crypto';
import assert from 'node:assert/strict';
import { request } from '../support/http';
import {
  action,
  createSession,
  joinSession as join,
  sessionBody,
  teamNotarySession,
  waitForSession,
} from '../support/sessions';
import { testEnvironment } from '../support/environment';
import { createTestAccount } from '../support/accounts';
import { letTimePass } from '../support/eventually';
import { startOwnQueue, type SecondApp } from '../support/secondApp';
import { recordHistory } from '../support/histories';

async function historyOf(id: string) {
  return testEnvironment().runtime.temporal.client.workflow.getHandle(`session-${id}`).fetchHistory();
}

/** Issue 15.6: an integrator's automation acts as fast as it can; the service's own lag refuses nothing. */
describe('a caller acting ahead of the service', () => {
  it('a named-notary session is ready at creation: join, start, complete and release back to back', async () => {
    const { account, created, id } = await teamNotarySession({
      final_documents_delivery_mode: 'notary_manual',
    });
    assert.equal(created.status, 200, created.text);
    const read = await request(`/api/integrationsv2/sessions/${id}`, { auth: account.api_key });
    assert.equal(read.body.status, 'ready', 'the notary is known at creation');

    assert.equal((await join(created.body.bn_signing_url)).status, 200);
    const started = await action(account.api_key, id, 'start');
    assert.equal(started.status, 200, started.text);
    assert.equal(started.body.status, 'in_progress');
    const completed = await action(account.api_key, id, 'complete');
    assert.equal(completed.status, 200, completed.text);
    const released = await action(account.api_key, id, 'release_documents');
    assert.equal(
      released.status,
      200,
      `a release while the documents are finalized is recorded: ${released.text}`,
    );
    assert.ok(['pending', 'held', 'released'].includes(released.body.documents_status), released.text);

    const done = await waitForSession(account.api_key, id, (s) => s.documents_status === 'released');
    assert.equal(done.status, 'completed');
    const documents = await request(`/api/integrationsv2/sessions/${id}/documents`, {
      auth: account.api_key,
    });
    assert.equal(documents.status, 200, documents.text);
    await recordHistory('session-ready-at-once-released-while-finalizing', `session-${id}`);
  });

  it('a start refused while the service still works says what it waits for, with Retry-After', async () => {
    const { account, id: scheduledId } = await teamNotarySession({
      notarization_timing_type: 'notarize_later',
      session_timing: new Date(Date.now() + 60_000).toISOString(),
    });
    const early = await action(account.api_key, scheduledId, 'start');
    assert.equal(early.status, 409, early.text);
    assert.match(early.body.response_message, /^Session cannot be started while scheduled: it opens at /);
    const retryAfter = Number(early.headers.get('retry-after'));
    assert.ok(retryAfter > 50 && retryAfter <= 60, `Retry-After ${retryAfter} s: until session_timing`);

    // On demand with no network notary at all: the session waits for one.
    const onDemand = await createSession(account.api_key, await sessionBody({ state_specific_notary: 'WY' }));
    const id = onDemand.body.bn_session_id;
    await waitForSession(account.api_key, id, (s) => s.status === 'awaiting_notary');
    const waiting = await action(account.api_key, id, 'start');
    assert.equal(waiting.status, 409, waiting.text);
    assert.equal(
      waiting.body.response_message,
      'Session cannot be started while awaiting_notary: waiting for a notary to be assigned',
    );
    assert.equal(waiting.headers.get('retry-after'), '5');
    // A refusal that waits on a person has no Retry-After.
    const outOfOrder = await action(account.api_key, scheduledId, 'complete');
    assert.equal(outOfOrder.status, 409);
    assert.equal(outOfOrder.headers.get('retry-after'), null);
  });

  it('joins are judged by the workflow: a repeated join answers 200 and leaves no trace in its history', async () => {
    const { account, created, id } = await teamNotarySession();
    for (let i = 0; i < 20; i++) {
      const joined = await join(created.body.bn_signing_url);
      assert.equal(joined.status, 200, joined.text);
    }
    const history = await historyOf(id);
    const joins = (history.events ?? []).filter(
      (e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === 'join',
    );
    assert.equal(joins.length, 1, 'one accepted join; the 19 repeats were refused by its validator');
    const session = await waitForSession(account.api_key, id, (s) => s.participants?.[0]?.joined_at);
    assert.ok(session.participants[0].joined_at);
  });

  describe('with a worker that sends no mail, so the invitations step takes a few milliseconds', () => {
    const queue = `no-mail-${crypto.randomUUID()}`;
    let app: SecondApp;
    before(async () => {
      app = await startOwnQueue(queue, { smtpUrl: undefined });
    });
    after(() => app?.close());

    it('a cancel right after the create is applied even when it meets the workflow mid-step', async () => {
      const account = await createTestAccount();
      const call = async (path: string, body: unknown) => {
        const res = await fetch(`${app.url}/api/integrationsv2/sessions${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${account.api_key}` },
          body: JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as Record<string, any> };
      };
      // A cancel that reaches the workflow while its invitations activity runs rides a workflow task that
      // the server then fails (the activity completed meanwhile: UnhandledCommand), and the server aborts
      // the update it had not accepted. The cancels go 0-95 ms after their creates, spread over that step:
      // without the retry, the one sent 20 ms after answered 500 (on a dev instance, most at 30-60 ms did).
      for (let i = 0; i < 20; i++) {
        const created = await call('', await sessionBody());
        assert.equal(created.status, 200, JSON.stringify(created.body));
        await letTimePass(i * 5);
        const cancelled = await call(`/${created.body.bn_session_id}/cancel`, {});
        assert.equal(cancelled.status, 200, `cancel ${i}: ${JSON.stringify(cancelled.body)}`);
        assert.equal(cancelled.body.status, 'cancelled');
      }
    });
  });
});
