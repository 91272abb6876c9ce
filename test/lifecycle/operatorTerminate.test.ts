import assert from 'node:assert/strict';
import { ScheduleOverlapPolicy, type ScheduleExecutionResult, type WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import {
  action,
  createSession,
  joinSession,
  joinedSessionWithHook,
  sessionBody,
  teamNotarySession,
  waitForSession,
} from '../support/sessions';
import { addTeamNotary, createTestAccount } from '../support/accounts';
import { receiverForSuite, subscribe } from '../support/webhookReceiver';
import { testEnvironment } from '../support/environment';
import { resetTo, untilIdle, untilRunning } from '../support/workflows';
import { eventually } from '../support/eventually';
import { request } from '../support/http';
import { admin } from '../support/adminCli';
import { damageStoredPdf } from '../support/damagedDocuments';
import { b64, pdfBytes } from '../support/documents';
import { TERMINATED_WORKFLOW_SWEEP_SCHEDULE } from '../../src/temporal/schedules';

const { EventType } = temporal.api.enums.v1;

const client = () => testEnvironment().runtime.temporal.client;

interface SweepResult {
  cancelledSessions: string[];
  failedDeliveries: string[];
}

/**
 * Runs the `terminated-workflow-sweep` Schedule now, beside any run of its own, and answers what that
 * run settled: a run that finished after the moment asked about has considered everything as it was then.
 */
async function sweep(): Promise<SweepResult> {
  const schedule = client().schedule.getHandle(TERMINATED_WORKFLOW_SWEEP_SCHEDULE);
  const runIdOf = (action: ScheduleExecutionResult) => action.action.workflow.firstExecutionRunId;
  // The Schedule keeps its last few actions only: a new one is told by its run, not by their count.
  const seen = new Set((await schedule.describe()).info.recentActions.map(runIdOf));
  const asked = Date.now();
  await schedule.trigger(ScheduleOverlapPolicy.ALLOW_ALL);
  const isNew = (action: ScheduleExecutionResult) =>
    !seen.has(runIdOf(action)) && action.takenAt.getTime() >= asked;
  const actions = await eventually(
    async () => (await schedule.describe()).info.recentActions,
    (recent) => recent.some(isNew),
    'the sweep asked for to start',
  );
  const { workflowId, firstExecutionRunId } = actions.find(isNew)!.action.workflow;
  return client().workflow.getHandle(workflowId, firstExecutionRunId).result() as Promise<SweepResult>;
}

/** An operator’s reset of the workflow to the end of its last workflow task; answers the run it starts. */
async function resetToLastTask(workflowId: string): Promise<WorkflowHandle> {
  const tasks = await eventually(
    async () =>
      (await client().workflow.getHandle(workflowId).fetchHistory()).events!.filter(
        (e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
      ),
    (completed) => completed.length > 0,
    'a workflow task completed, to reset to',
  );
  return resetTo(workflowId, tasks.at(-1)!, 'an operator runs the session again from its last task');
}

describe('the terminated-workflow sweep', () => {
  it('is a Temporal Schedule operators see', async () => {
    const schedule = await client().schedule.getHandle(TERMINATED_WORKFLOW_SWEEP_SCHEDULE).describe();
    assert.equal(schedule.action.type, 'startWorkflow');
    assert.equal(
      schedule.action.type === 'startWorkflow' && schedule.action.workflowType,
      'terminatedWorkflowSweepWorkflow',
    );
  });
});

describe('a session whose workflow an operator terminated', () => {
  const suite = receiverForSuite();
  const { receiver } = suite;

  it('is ended as a cancel ends it: recorded cancelled, session_cancelled published once, its links closed', async function () {
    this.timeout(60_000);
    const { account, created, id } = await joinedSessionWithHook(suite.url, ['session_cancelled']);
    const handle = client().workflow.getHandle(`session-${id}`);

    await handle.terminate('test: an operator terminates the session');
    const meanwhile = await action(account.api_key, id, 'start');
    assert.equal(meanwhile.status, 409, meanwhile.text);
    // (Or cancelled, if the Schedule's own run came in between.)
    assert.match(
      meanwhile.body.response_message,
      /^Session has ended: (its workflow was stopped while it was ready|it is cancelled)$/,
    );
    const added = await request(`/api/integrationsv2/sessions/${id}/documents`, {
      auth: account.api_key,
      body: { session_documents: [{ name: 'late.pdf', base64Doc: b64(await pdfBytes(1)) }] },
    });
    assert.equal(added.status, 409, added.text);
    assert.match(added.body.response_message, /^Session has ended: /);
    await sweep();

    const ended = await waitForSession(account.api_key, id, (s) => s.status === 'cancelled');
    assert.deepEqual([ended.status, ended.documents_status], ['cancelled', 'pending']);
    const received = await receiver.waitFor((all) =>
      all.some((r) => r.json.bn_session_id === id && r.json.event === 'session_cancelled'),
    );
    const ours = received.filter((r) => r.json.bn_session_id === id);
    assert.deepEqual(
      ours.map((r) => [r.json.event, r.json.status]),
      [['session_cancelled', 'cancelled']],
    );
    assert.ok(!(await sweep()).cancelledSessions.includes(id), 'a sweep run again finds nothing left to end');
    assert.equal(receiver.received.filter((r) => r.json.bn_session_id === id).length, 1);

    const join = await joinSession(created.body.bn_signing_url);
    assert.equal(join.status, 409, join.text);
    const cancel = await action(account.api_key, id, 'cancel');
    assert.equal(cancel.status, 200, `the integrator's cancel learns it happened: ${cancel.text}`);
    assert.equal(cancel.body.status, 'cancelled');
    const start = await action(account.api_key, id, 'start');
    assert.equal(start.status, 409, start.text);
  });

  it('recorded cancelled by its workflow before the event went out: the event is published', async function () {
    this.timeout(60_000);
    const { sequelize } = testEnvironment().runtime;
    const { account, id } = await teamNotarySession();
    await subscribe(account.api_key, suite.url, ['session_cancelled']);
    await waitForSession(account.api_key, id, (s) => s.status === 'ready');
    // The moment between the workflow's two steps of a cancel, its status recorded and the event not yet
    // published, when the terminate came.
    await client().workflow.getHandle(`session-${id}`).terminate('test: terminated mid-cancel');
    await sequelize.query(`UPDATE sessions SET status = 'cancelled' WHERE id = $1`, { bind: [id] });

    await sweep();

    const received = await receiver.waitFor((all) =>
      all.some((r) => r.json.bn_session_id === id && r.json.event === 'session_cancelled'),
    );
    assert.equal(received.filter((r) => r.json.bn_session_id === id).length, 1);
  });

  it('is left to the run a reset started (a reset terminates the run it replaces)', async function () {
    this.timeout(60_000);
    const { account, id } = await teamNotarySession();
    await waitForSession(account.api_key, id, (s) => s.status === 'ready');

    const reset = await resetToLastTask(`session-${id}`);
    const { cancelledSessions: cancelled } = await sweep();

    assert.ok(!cancelled.includes(id), cancelled.join());
    assert.equal((await reset.describe()).status.name, 'RUNNING');
    const goesOn = await action(account.api_key, id, 'cancel');
    assert.equal(goesOn.status, 200, goesOn.text);
    assert.equal(goesOn.body.status, 'cancelled');
  });

  it('completed with its documents held, is left as it is; its release waits for an operator’s reset', async function () {
    this.timeout(60_000);
    const { account, created, id } = await teamNotarySession({
      final_documents_delivery_mode: 'notary_manual',
    });
    await waitForSession(account.api_key, id, (s) => s.status === 'ready');
    assert.equal((await joinSession(created.body.bn_signing_url)).status, 200);
    assert.equal((await action(account.api_key, id, 'start')).status, 200);
    assert.equal((await action(account.api_key, id, 'complete')).status, 200);
    await waitForSession(account.api_key, id, (s) => s.documents_status === 'held');
    await client().workflow.getHandle(`session-${id}`).terminate('test: terminated once completed');

    const { cancelledSessions: cancelled } = await sweep();

    assert.ok(!cancelled.includes(id), cancelled.join());
    const left = await waitForSession(account.api_key, id, () => true);
    assert.deepEqual([left.status, left.documents_status], ['completed', 'held']);
    const refused = await action(account.api_key, id, 'release_documents');
    assert.equal(refused.status, 409, refused.text);
    assert.equal(
      refused.body.response_message,
      'Session has ended: its workflow was stopped while it was completed, its documents held',
    );

    await resetToLastTask(`session-${id}`);
    const released = await action(account.api_key, id, 'release_documents');
    assert.equal(released.status, 200, released.text);
    await waitForSession(account.api_key, id, (s) => s.documents_status === 'released');
  });

  it('completed with its documents failed: the operator’s retry says to reset the workflow first, and retries after the reset', async function () {
    this.timeout(60_000);
    const { account, created, id } = await teamNotarySession();
    await waitForSession(account.api_key, id, (s) => s.status === 'ready');
    assert.equal((await joinSession(created.body.bn_signing_url)).status, 200);
    assert.equal((await action(account.api_key, id, 'start')).status, 200);
    const repair = await damageStoredPdf(id);
    assert.equal((await action(account.api_key, id, 'complete')).status, 200);
    await waitForSession(account.api_key, id, (s) => s.documents_status === 'failed');
    // Recorded inside a task that may still be running: the task the operator resets to is the one that
    // left the session waiting for the retry, not one before it that would notarize again on its own.
    const handle = client().workflow.getHandle(`session-${id}`);
    await untilIdle(handle, 'the workflow to wait for the operator’s retry');
    await handle.terminate('test: terminated with its documents failed');

    const refused = await admin(['retry-finalization', '--session', id]);
    assert.equal(refused.code, 1);
    assert.equal(
      refused.json.error,
      `The session's workflow session-${id} is not running (terminated, or failed): reset it to its last workflow task (temporal workflow reset --type LastWorkflowTask), then retry`,
    );

    await repair();
    await resetToLastTask(`session-${id}`);
    const retried = await admin(['retry-finalization', '--session', id]);
    assert.equal(retried.code, 0, retried.stderr);
    await waitForSession(account.api_key, id, (s) => s.documents_status === 'released');
  });
});

describe('a webhook delivery whose workflow an operator terminated', () => {
  const suite = receiverForSuite();
  const { receiver } = suite;
  afterEach(() => {
    receiver.unanswered = undefined;
  });

  /** A session whose session_created goes unanswered, so its delivery workflow is retrying. */
  async function retryingDelivery() {
    receiver.unanswered = (webhook) => webhook.json.event === 'session_created';
    const account = await createTestAccount();
    const endpointId = await subscribe(account.api_key, suite.url, ['session_created']);
    const notary = await addTeamNotary(account.account_id);
    const created = await createSession(
      account.api_key,
      await sessionBody({ session_notary_email: notary.email }),
    );
    const sessionId = created.body.bn_session_id as string;
    const list = () =>
      request(`/api/integrationsv2/webhooks/${endpointId}/deliveries`, { auth: account.api_key }).then(
        (res) =>
          res.body.data as Array<{ delivery_id: string; status: string; failure_reason: string | null }>,
      );
    const [delivery] = await eventually(list, (rows) => rows.length === 1, 'the delivery recorded');
    const handle = client().workflow.getHandle(`webhook-delivery-${delivery.delivery_id}`);
    await untilRunning(handle, 'the delivery workflow to be retrying');
    const statusOf = async () => (await list())[0].status;
    const redeliver = () =>
      request(`/api/integrationsv2/webhooks/deliveries/${delivery.delivery_id}/redeliver`, {
        auth: account.api_key,
        body: {},
      });
    // The session that started the delivery's workflow as its child is not disturbed by what happens to it.
    const sessionUndisturbed = async () => {
      const { events } = await client().workflow.getHandle(`session-${sessionId}`).fetchHistory();
      const types = events!.map((e) => e.eventType);
      assert.ok(
        types.includes(EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_TERMINATED),
        'it saw the terminate',
      );
      assert.ok(!types.includes(EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED), 'no workflow task failed on it');
      const cancel = await action(account.api_key, sessionId, 'cancel');
      assert.equal(cancel.status, 200, cancel.text);
    };
    return { deliveryId: delivery.delivery_id, handle, list, statusOf, redeliver, sessionUndisturbed };
  }

  it('is recorded failed, and redelivers on request', async function () {
    this.timeout(60_000);
    const { deliveryId, handle, list, statusOf, redeliver, sessionUndisturbed } = await retryingDelivery();

    await handle.terminate('test: an operator terminates a delivery');
    const { failedDeliveries } = await sweep();

    assert.ok(failedDeliveries.includes(deliveryId), failedDeliveries.join());
    const [failed] = await list();
    assert.deepEqual([failed.status, failed.failure_reason], ['failed', 'stopped_by_operator']);
    receiver.unanswered = undefined;
    assert.equal((await redeliver()).status, 202);
    assert.equal(await eventually(statusOf, (s) => s === 'delivered', 'the redelivery'), 'delivered');
    await sessionUndisturbed();
  });
});
