import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { addTeamNotary, createTestAccount } from '../support/accounts';
import { request } from '../support/http';
import { action, createSession, sessionBody, signer, tokenOf, waitForSession } from '../support/sessions';
import { receiverForSuite, subscribe } from '../support/webhookReceiver';
import { untilBlockedOnLock } from '../support/locks';
import { testEnvironment } from '../support/environment';
import { recordHistory } from '../support/histories';
import { startWorker } from '../../worker/createWorker';
import { startWorkerProcess, type WorkerProcess } from '../support/workerProcess';
import { participantJoinedSignal } from '../../core/session/messages';
import type { sessionWorkflow } from '../../workflows/session';
import { lastTaskBefore, resetTo, untilRunning } from '../support/workflows';
import { eventually, letTimePass } from '../support/eventually';
import { rowExists } from '../../src/db/query';
import { temporal } from '@temporalio/proto';

/** An account with a team notary, its events subscribed to at `url`. */
async function teamWithHook(url: string, events: string[]) {
  const account = await createTestAccount();
  await subscribe(account.api_key, url, events);
  return { account, notary: await addTeamNotary(account.account_id) };
}

/** Waits until every webhook delivery of the session's events is delivered. */
async function untilDelivered(sessionId: string): Promise<void> {
  await eventually(
    async () =>
      (
        await testEnvironment().runtime.sequelize.query(
          `SELECT d.status FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
            WHERE e.session_id = $1 AND d.status <> 'delivered'`,
          { bind: [sessionId] },
        )
      )[0],
    (undelivered) => undelivered.length === 0,
    "the session's webhooks delivered",
  );
}

describe('durability', () => {
  it('a session survives its worker stopping mid-way: a new worker fires the timer and finishes it', async function () {
    this.timeout(60_000);
    const env = testEnvironment();
    const account = await createTestAccount();
    const notary = await addTeamNotary(account.account_id);
    const created = await createSession(
      account.api_key,
      await sessionBody({
        session_notary_email: notary.email,
        notarization_timing_type: 'notarize_later',
        session_timing: new Date(Date.now() + 3_000).toISOString(),
      }),
    );
    const id = created.body.bn_session_id;
    await waitForSession(account.api_key, id, (s) => s.status === 'scheduled');

    await env.runtime.worker!.shutdown();
    // The session's timer comes due while no worker is running.
    await letTimePass(3_500);
    assert.equal(
      (await request(`/api/integrationsv2/sessions/${id}`, { auth: account.api_key })).body.status,
      'scheduled',
    );

    env.runtime.worker = await startWorker({
      config: env.config,
      logger: env.runtime.logger,
      sequelize: env.runtime.sequelize,
      temporalAddress: env.config.temporalAddress!,
      workflowBundle: env.workflowBundle,
    });
    await waitForSession(account.api_key, id, (s) => s.status === 'ready');
    assert.equal(
      (await request(`/sign/${tokenOf(created.body.bn_signing_url)}/join`, { method: 'POST' })).status,
      200,
    );
    assert.equal((await action(account.api_key, id, 'start')).status, 200);
    assert.equal((await action(account.api_key, id, 'complete')).status, 200);
    await waitForSession(account.api_key, id, (s) => s.documents_status === 'released');
    await recordHistory('session-worker-restart', `session-${id}`);
  });
});

describe('a session whose workflow task does not stand: rejected by Temporal, or lost with its worker', () => {
  const suite = receiverForSuite();
  const { receiver } = suite;

  it('closing while a step it started completes: the end is recorded in a task of its own, and a task Temporal rejects publishes nothing', async function () {
    this.timeout(60_000);
    const env = testEnvironment();
    const { sequelize, temporal: client } = env.runtime;
    const { account, notary } = await teamWithHook(suite.url, [
      'session_cancelled',
      'invites_sent',
      'notary_assigned',
    ]);
    const held = env.smtp.held.length;
    const created = await createSession(
      account.api_key,
      await sessionBody({
        session_notary_email: notary.email,
        all_signers: [signer(0, { email: `hold-${crypto.randomUUID()}@example.com` })],
      }),
    );
    const id = created.body.bn_session_id;
    const handle = client.client.workflow.getHandle(`session-${id}`);
    await eventually(
      async () => env.smtp.held.length,
      (n) => n > held,
      'the invitation in flight, its recipient not answered yet',
    );

    // The cancel's first step (recording the status) waits on the session's row, inside the cancel's
    // workflow task; meanwhile the invitation's send completes. A task that would close the workflow is
    // then rejected by Temporal (new events arrived), and what its local steps did must not stand.
    const lock = await sequelize.transaction();
    await sequelize.query('SELECT 1 FROM sessions WHERE id = $1 FOR UPDATE', {
      bind: [id],
      transaction: lock,
    });
    const cancelling = action(account.api_key, id, 'cancel');
    await untilBlockedOnLock('UPDATE sessions SET status%', 'the cancel waiting to record its status');
    env.smtp.releaseHeld();
    // Temporal buffers the activity's completion while the task is open; it shows as no longer pending.
    await eventually(
      async () => (await handle.describe()).raw.pendingActivities ?? [],
      (pending) => pending.length === 0,
      'the invitation sent while the cancel is under way',
    );
    await lock.commit();

    const cancelled = await cancelling;
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.status, 'cancelled');
    assert.equal(await handle.result(), 'cancelled');
    const [events] = (await sequelize.query(
      'SELECT event FROM events WHERE session_id = $1 ORDER BY created_at, id',
      { bind: [id] },
    )) as [Array<{ event: string }>, unknown];
    assert.deepEqual(
      events.map((e) => e.event),
      ['session_created', 'session_cancelled'],
    );
    const ofThisSession = (received: typeof receiver.received) =>
      received.filter((r) => r.json.bn_session_id === id).map((r) => r.json.event);
    const received = await receiver.waitFor((all) => ofThisSession(all).includes('session_cancelled'));
    assert.deepEqual(ofThisSession(received), ['session_cancelled']);
    assert.equal((await waitForSession(account.api_key, id, () => true)).status, 'cancelled');
    await recordHistory('session-cancelled-while-invitation-sent', `session-${id}`);
  });

  it('lost after its local steps ran: each event is published once and none is lost when the task, run again, takes another path', async function () {
    this.timeout(90_000);
    const env = testEnvironment();
    const { sequelize, temporal: client } = env.runtime;
    const { account, notary } = await teamWithHook(suite.url, [
      'notary_assigned',
      'session_cancelled',
      'join_session',
    ]);
    const created = await createSession(
      account.api_key,
      await sessionBody({ session_notary_email: notary.email }),
    );
    const id = created.body.bn_session_id;
    const ofThisSession = (received: typeof receiver.received, event: string) =>
      received.filter((r) => r.json.bn_session_id === id && r.json.event === event);
    await receiver.waitFor((all) => ofThisSession(all, 'notary_assigned').length > 0);
    const session = await waitForSession(account.api_key, id, (s) => s.status === 'ready');
    const handle = client.client.workflow.getHandle(`session-${id}`);
    const recorded = async (event: string) =>
      rowExists(sequelize, 'SELECT 1 FROM events WHERE session_id = $1 AND event = $2', {
        bind: [id, event],
      });

    // The cancel's task goes to a worker process that dies once the cancel's event is recorded, while
    // its webhook's first attempt (left unanswered) holds the task open: Temporal never accepts it.
    await env.runtime.worker!.shutdown();
    let cancelling: ReturnType<typeof action> | undefined;
    let doomed: WorkerProcess | undefined;
    try {
      doomed = await startWorkerProcess();
      receiver.unanswered = (webhook) =>
        webhook.json.bn_session_id === id && webhook.json.event === 'session_cancelled';
      cancelling = action(account.api_key, id, 'cancel');
      await eventually(
        () => recorded('session_cancelled'),
        Boolean,
        'the cancel to record its event inside its task',
        { intervalMs: 5 },
      );
      doomed.kill();
      await doomed.exited;
      // A signal is in the history as soon as it is answered, so the task run again meets the join
      // first and publishes join_session where the lost task had published session_cancelled.
      const { role, index, email } = session.participants[0];
      await handle.signal(participantJoinedSignal, { role, index, email });
    } finally {
      doomed?.kill();
      receiver.unanswered = undefined;
      env.runtime.worker = await startWorker({
        config: env.config,
        logger: env.runtime.logger,
        sequelize,
        temporalAddress: env.config.temporalAddress!,
        workflowBundle: env.workflowBundle,
      });
    }

    const cancelled = await cancelling;
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(await handle.result(), 'cancelled');
    const { events: history } = await handle.fetchHistory();
    assert.ok(
      history!.some(
        (e) => e.eventType === temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT,
      ),
      'the cancel’s task was lost with its worker, not completed before it died',
    );
    const [events] = (await sequelize.query('SELECT event FROM events WHERE session_id = $1', {
      bind: [id],
    })) as [Array<{ event: string }>, unknown];
    assert.deepEqual(events.map((e) => e.event).sort(), [
      'invites_sent',
      'join_session',
      'notary_assigned',
      'session_cancelled',
      'session_created',
    ]);
    // Whether the lost task's first attempt went out before the worker died or not, every delivery of
    // the session's cancel carries one id and one body.
    await untilDelivered(id);
    assert.equal(ofThisSession(receiver.received, 'join_session').length, 1);
    const cancels = ofThisSession(receiver.received, 'session_cancelled');
    assert.ok(cancels.length > 0);
    assert.equal(new Set(cancels.map((r) => r.headers['webhook-id'])).size, 1);
    assert.equal(new Set(cancels.map((r) => r.body)).size, 1);
    await recordHistory('session-task-lost-after-publishing', `session-${id}`);
  });
});

describe('a session reset by an operator', () => {
  const suite = receiverForSuite();
  const { receiver } = suite;

  it('to the task that published its first event, while that event’s webhook is still being retried: it carries on, and the event stays one', async function () {
    this.timeout(90_000);
    const env = testEnvironment();
    const { sequelize, temporal: client } = env.runtime;
    const { account, notary } = await teamWithHook(suite.url, ['session_created', 'session_cancelled']);
    const body = await sessionBody({ session_notary_email: notary.email });
    // Every attempt at session_created goes unanswered, so its delivery workflow is retrying when the
    // session is reset (four attempts of 2 s with 1 s between them, in the tests' schedule).
    receiver.unanswered = (webhook) =>
      webhook.json.notarization_id === body.notarization_id && webhook.json.event === 'session_created';
    try {
      const created = await createSession(account.api_key, body);
      assert.equal(created.status, 200, created.text);
      const id = created.body.bn_session_id;
      const workflowId = `session-${id}`;
      const [[delivery]] = await eventually(
        async () =>
          (await sequelize.query(
            `SELECT d.id FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
              WHERE e.session_id = $1 AND e.event = 'session_created'`,
            { bind: [id] },
          )) as [Array<{ id: string }>, unknown],
        ([rows]) => rows.length === 1,
        'session_created to be published',
      );
      const retrying = client.client.workflow.getHandle(`webhook-delivery-${delivery.id}`);
      await untilRunning(retrying, 'the delivery workflow of session_created to be retrying');

      // The reset point an operator picks to run the session's first steps again: the end of the task
      // whose local steps recorded the first event (the markers that follow it in the history).
      const original = client.client.workflow.getHandle(workflowId);
      const { events: history } = await original.fetchHistory();
      const { EventType } = temporal.api.enums.v1;
      const taskEnd = lastTaskBefore(history!, (e) => e.eventType === EventType.EVENT_TYPE_MARKER_RECORDED);
      const reset = await resetTo(
        workflowId,
        taskEnd,
        'an operator runs the session again from its first steps',
      );
      // The run again publishes session_created under the same id and finds its delivery pending, with
      // the old run's delivery workflow still carrying it.
      await eventually(
        async () => (await reset.fetchHistory()).events!,
        (events) =>
          events.some((e) => e.eventType === EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_FAILED),
        'the reset run to meet the delivery workflow already running',
      );
      receiver.unanswered = undefined;

      const cancelled = await action(account.api_key, id, 'cancel');
      assert.equal(cancelled.status, 200, cancelled.text);
      assert.equal(await reset.result(), 'cancelled');
      const [events] = (await sequelize.query(
        `SELECT event FROM events WHERE session_id = $1 AND event IN ('session_created', 'session_cancelled')`,
        { bind: [id] },
      )) as [Array<{ event: string }>, unknown];
      assert.deepEqual(events.map((e) => e.event).sort(), ['session_cancelled', 'session_created']);
      await untilDelivered(id);
      const createdHooks = receiver.received.filter(
        (r) => r.json.bn_session_id === id && r.json.event === 'session_created',
      );
      assert.ok(createdHooks.length > 1, 'session_created was attempted more than once');
      assert.equal(new Set(createdHooks.map((r) => r.headers['webhook-id'])).size, 1);
      assert.equal(new Set(createdHooks.map((r) => r.body)).size, 1);
      const audit = await request(`/api/integrationsv2/sessions/${id}/audit`, { auth: account.api_key });
      assert.equal(audit.body.intact, true);
      assert.equal(
        audit.body.records.filter((r: { event: string }) => r.event === 'session_created').length,
        1,
      );
      await recordHistory('session-reset-while-delivery-retried', workflowId);
    } finally {
      receiver.unanswered = undefined;
    }
  });

  it('to a task before a participant joined: the join the reset run meets again is the same event, not another', async function () {
    this.timeout(60_000);
    const { sequelize, temporal: client } = testEnvironment().runtime;
    const { account, notary } = await teamWithHook(suite.url, ['join_session', 'session_cancelled']);
    const created = await createSession(
      account.api_key,
      await sessionBody({ session_notary_email: notary.email }),
    );
    const id = created.body.bn_session_id;
    const workflowId = `session-${id}`;
    const session = await waitForSession(account.api_key, id, (s) => s.status === 'ready');
    const joins = () =>
      receiver.received.filter((r) => r.json.bn_session_id === id && r.json.event === 'join_session');
    const { role, index, email } = session.participants[0];
    await client.client.workflow
      .getHandle(workflowId)
      .signal(participantJoinedSignal, { role, index, email });
    await receiver.waitFor(() => joins().length > 0);

    // The reset point: the end of the last task before the join. Temporal gives the run the reset
    // starts the join again (a reset reapplies the signals after its point).
    const { events: history } = await client.client.workflow.getHandle(workflowId).fetchHistory();
    const { EventType } = temporal.api.enums.v1;
    const taskEnd = lastTaskBefore(
      history!,
      (e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED,
    );
    const reset = await resetTo(
      workflowId,
      taskEnd,
      'an operator runs the session again from before its join',
    );

    const cancelled = await action(account.api_key, id, 'cancel');
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(await reset.result(), 'cancelled');
    const { events: again } = await reset.fetchHistory();
    assert.ok(
      again!
        .slice(Number(taskEnd.eventId))
        .some((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED),
      'the reset run met the join again',
    );
    await untilDelivered(id);
    const [published] = (await sequelize.query(
      `SELECT id FROM events WHERE session_id = $1 AND event = 'join_session'`,
      { bind: [id] },
    )) as [Array<{ id: string }>, unknown];
    assert.equal(published.length, 1);
    assert.deepEqual([...new Set(joins().map((r) => r.headers['webhook-id']))], [published[0].id]);
    await recordHistory('session-reset-before-join', workflowId);
  });
});

describe('a session whose rows are not committed yet', () => {
  /** Starts a session workflow the way the API does, from inside a transaction the test holds open. */
  async function startInOpenTransaction() {
    const env = testEnvironment();
    const { sequelize, temporal } = env.runtime;
    const transaction = await sequelize.transaction();
    const [xact] = (await sequelize.query('SELECT pg_current_xact_id()::text AS id', { transaction })) as [
      Array<{ id: string }>,
      unknown,
    ];
    const sessionId = crypto.randomUUID();
    const handle = await temporal.client.workflow.start<typeof sessionWorkflow>('sessionWorkflow', {
      workflowId: `session-${sessionId}`,
      taskQueue: env.config.taskQueue,
      args: [
        {
          sessionId,
          transactionId: xact[0].id,
          accountId: crypto.randomUUID(),
          notarizationId: null,
          plan: {
            holdInvitesUntilPretagged: false,
            deliveryMode: 'immediately',
            notary: { kind: 'network' },
            primarySignerIndex: 0,
            witnessesRequired: 0,
            serviceWitnesses: 0,
            identityRequired: [],
            testMode: true,
          },
        },
      ],
    });
    return { transaction, handle };
  }

  it('keeps asking while its transaction is open and is abandoned only once that transaction aborts', async function () {
    this.timeout(60_000);
    const { transaction, handle } = await startInOpenTransaction();
    const pending = await eventually(
      async () => (await handle.describe()).raw.pendingActivities?.[0],
      (p) => (p?.attempt ?? 0) >= 4,
      'the confirmation to be retried while the transaction is open',
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    assert.equal(pending!.activityType?.name, 'confirmSessionRecorded');
    assert.equal(pending!.lastFailure?.applicationFailureInfo?.type, 'SessionNotVisible');
    assert.equal((await handle.describe()).status.name, 'RUNNING');
    await transaction.rollback();
    assert.equal(await handle.result(), 'abandoned');
  });

  it('is abandoned within its first workflow task when its transaction aborts at once', async function () {
    this.timeout(30_000);
    const { transaction, handle } = await startInOpenTransaction();
    await transaction.rollback();
    assert.equal(await handle.result(), 'abandoned');
    const { events } = await handle.fetchHistory();
    const scheduled = events!.flatMap(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? [],
    );
    assert.deepEqual(scheduled, [], 'asked within the task: no activity task for operators to wait on');
  });
});
