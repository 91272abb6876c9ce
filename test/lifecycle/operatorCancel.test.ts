import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { temporal } from '@temporalio/proto';
import type { WorkflowHandle } from '@temporalio/client';
import {
  action,
  joinSession,
  joinedSessionWithHook,
  signer,
  teamNotarySession,
  waitForSession,
} from '../support/sessions';
import { receiverForSuite, subscribe } from '../support/webhookReceiver';
import { testEnvironment } from '../support/environment';
import { recordHistory } from '../support/histories';
import { eventually } from '../support/eventually';
import { assertNoWorkflowTaskFailed, untilIdle } from '../support/workflows';
import { participantJoinedSignal, snapshotQuery } from '../../core/session/messages';

const { EventType } = temporal.api.enums.v1;

/** Waits until the session's workflow has taken a cancellation request in a task it completed. */
async function cancelTaken(handle: WorkflowHandle): Promise<void> {
  await eventually(
    async () => (await handle.fetchHistory()).events!.map((e) => e.eventType),
    (types) => {
      const requested = types.indexOf(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CANCEL_REQUESTED);
      return requested >= 0 && types.slice(requested).includes(EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED);
    },
    'the workflow to take the cancellation request',
  );
}

describe('a cancellation requested in Temporal (the UI’s Request Cancellation, `temporal workflow cancel`)', () => {
  const suite = receiverForSuite();
  const { receiver } = suite;

  it('ends an unfinished session as the integrator’s cancel does: recorded, published once, the workflow completed', async function () {
    this.timeout(60_000);
    const { account, id } = await joinedSessionWithHook(suite.url, ['session_cancelled']);
    const handle = testEnvironment().runtime.temporal.client.workflow.getHandle(`session-${id}`);

    await handle.cancel();

    assert.equal(await handle.result(), 'cancelled');
    assert.equal(
      (await waitForSession(account.api_key, id, (s) => s.status === 'cancelled')).status,
      'cancelled',
    );
    const received = await receiver.waitFor((all) =>
      all.some((r) => r.json.bn_session_id === id && r.json.event === 'session_cancelled'),
    );
    assert.equal(received.filter((r) => r.json.bn_session_id === id).length, 1);
    const again = await action(account.api_key, id, 'cancel');
    assert.equal(again.status, 200, `the integrator's cancel learns it happened: ${again.text}`);
    assert.equal(again.body.status, 'cancelled');
    await recordHistory('session-cancel-requested-in-temporal', `session-${id}`);
  });

  it('ends a session in the middle of a step (its invitation being sent) without failing a workflow task', async function () {
    this.timeout(60_000);
    const env = testEnvironment();
    const held = env.smtp.held.length;
    const { account, id } = await teamNotarySession({
      all_signers: [signer(0, { email: `hold-${crypto.randomUUID()}@example.com` })],
    });
    await subscribe(account.api_key, suite.url, ['session_cancelled', 'invites_sent']);
    await eventually(
      async () => env.smtp.held.length,
      (n) => n > held,
      'the invitation in flight, its recipient not answered yet',
    );
    const handle = env.runtime.temporal.client.workflow.getHandle(`session-${id}`);

    await handle.cancel();
    await cancelTaken(handle);
    env.smtp.releaseHeld();

    assert.equal(await handle.result(), 'cancelled');
    assert.equal((await waitForSession(account.api_key, id, () => true)).status, 'cancelled');
    const received = await receiver.waitFor((all) =>
      all.some((r) => r.json.bn_session_id === id && r.json.event === 'session_cancelled'),
    );
    assert.deepEqual(
      received.filter((r) => r.json.bn_session_id === id).map((r) => r.json.event),
      ['session_cancelled'],
    );
    await assertNoWorkflowTaskFailed(handle, 'no workflow task failed on the way');
  });

  it('is declined by a completed session, which goes on to release its documents', async function () {
    this.timeout(60_000);
    const { account, created, id } = await teamNotarySession({
      final_documents_delivery_mode: 'notary_manual',
    });
    await subscribe(account.api_key, suite.url, ['session_cancelled', 'documents_released']);
    await waitForSession(account.api_key, id, (s) => s.status === 'ready');
    assert.equal((await joinSession(created.body.bn_signing_url)).status, 200);
    assert.equal((await action(account.api_key, id, 'start')).status, 200);
    assert.equal((await action(account.api_key, id, 'complete')).status, 200);
    await waitForSession(account.api_key, id, (s) => s.documents_status === 'held');
    const handle = testEnvironment().runtime.temporal.client.workflow.getHandle(`session-${id}`);

    await handle.cancel();
    await cancelTaken(handle);

    assert.equal((await handle.describe()).status.name, 'RUNNING');
    const held = await waitForSession(account.api_key, id, () => true);
    assert.deepEqual([held.status, held.documents_status], ['completed', 'held']);
    const released = await action(account.api_key, id, 'release_documents');
    assert.equal(released.status, 200, released.text);
    assert.equal(await handle.result(), 'completed');
    const received = await receiver.waitFor((all) =>
      all.some((r) => r.json.bn_session_id === id && r.json.event === 'documents_released'),
    );
    assert.deepEqual(
      received.filter((r) => r.json.bn_session_id === id).map((r) => r.json.event),
      ['documents_released'],
    );
    await recordHistory('session-cancel-declined-once-completed', `session-${id}`);
  });
});

describe('a participantJoined signal an operator sends from the UI (the join of histories before the join update)', () => {
  it('malformed, is ignored: no workflow task fails on it and the session goes on', async function () {
    this.timeout(60_000);
    const { account, created, id } = await teamNotarySession();
    await waitForSession(account.api_key, id, (s) => s.status === 'ready');
    const handle = testEnvironment().runtime.temporal.client.workflow.getHandle(`session-${id}`);
    for (const input of [[], [{}], [{ role: 'signer', index: 'first', email: 42 }]] as unknown[][])
      await handle.signal('participantJoined', ...input);

    assert.equal((await joinSession(created.body.bn_signing_url)).status, 200);
    const started = await action(account.api_key, id, 'start');
    assert.equal(started.status, 200, started.text);
    await assertNoWorkflowTaskFailed(handle, 'no workflow task failed');
  });

  it('well-formed, is held to the join’s rules: declined while the session is not open, taken once it is', async function () {
    this.timeout(60_000);
    const { account, id } = await teamNotarySession({ send_invite_after_pretagging: true });
    const held = await waitForSession(account.api_key, id, (s) => s.status === 'awaiting_pretag');
    const { role, index, email } = held.participants[0];
    const handle = testEnvironment().runtime.temporal.client.workflow.getHandle(`session-${id}`);
    const signalledJoin = async () => {
      await handle.signal(participantJoinedSignal, { role, index, email });
      await untilIdle(handle, 'the workflow to take the signal');
      const { status, joined } = await handle.query(snapshotQuery);
      return { status, joined };
    };

    assert.deepEqual(await signalledJoin(), { status: 'awaiting_pretag', joined: [] });
    assert.equal((await action(account.api_key, id, 'pretagged')).status, 200);
    await waitForSession(account.api_key, id, (s) => s.status === 'ready');
    assert.deepEqual(await signalledJoin(), { status: 'ready', joined: [{ role, index, email }] });
  });
});
