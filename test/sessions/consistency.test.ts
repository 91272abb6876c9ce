import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { Client } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { addTeamNotary, createTestAccount } from '../support/accounts';
import { createSession, sessionBody, teamNotarySession } from '../support/sessions';
import { startAppWithTemporalDown, startSecondApp, UNAVAILABLE_ANSWER } from '../support/secondApp';
import { testEnvironment } from '../support/environment';
import { eventually } from '../support/eventually';

async function sessionRows(notarizationId: string) {
  const [rows] = await testEnvironment().runtime.sequelize.query(
    `SELECT s.id, (SELECT count(*)::int FROM participants p WHERE p.session_id = s.id) AS participants
       FROM sessions s WHERE s.notarization_id = $1`,
    { bind: [notarizationId] },
  );
  return rows as Array<{ id: string }>;
}

async function workflowsOf(notarizationId: string) {
  const found: Array<{ workflowId: string; status: string }> = [];
  for await (const execution of testEnvironment().runtime.temporal.client.workflow.list({
    query: `NotarizationId = "${notarizationId}"`,
  })) {
    found.push({ workflowId: execution.workflowId, status: execution.status.name });
  }
  return found;
}

/** A create for the team notary sent to `appUrl` must be a clean 503 that left no session rows. */
async function createUnavailable(appUrl: string, apiKey: string, notaryEmail: string) {
  const body = await sessionBody({ session_notary_email: notaryEmail });
  const res = await fetch(`${appUrl}/api/integrationsv2/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 503, await res.clone().text());
  assert.equal(res.headers.get('retry-after'), '5');
  assert.deepEqual(await res.json(), UNAVAILABLE_ANSWER);
  assert.deepEqual(await sessionRows(body.notarization_id), []);
  return body;
}

describe('sessions and workflows never disagree (create consistency)', function () {
  this.timeout(60_000);

  it('Temporal unreachable: a clean 503, no session rows, and a retry succeeds', async () => {
    const account = await createTestAccount();
    const notary = await addTeamNotary(account.account_id);
    const app = await startAppWithTemporalDown();
    try {
      const body = await createUnavailable(app.url, account.api_key, notary.email);
      const [documents] = await testEnvironment().runtime.sequelize.query(
        'SELECT count(*)::int AS n FROM blobs WHERE account_id = $1',
        { bind: [account.account_id] },
      );
      assert.equal((documents as Array<{ n: number }>)[0].n, 0, 'no document bytes were kept');

      const retried = await createSession(account.api_key, body);
      assert.equal(retried.status, 200);
      assert.equal((await sessionRows(body.notarization_id)).length, 1);
    } finally {
      await app.close();
    }
  });

  it('a namespace that does not resolve the session search attributes: a clean 503, no session rows', async () => {
    const account = await createTestAccount();
    const notary = await addTeamNotary(account.account_id);
    // A real namespace of the same Temporal server on which nobody registered the attributes: Temporal
    // refuses the start with INVALID_ARGUMENT, as a fresh cluster did before its registration took hold.
    const namespace = `bare-${crypto.randomUUID()}`;
    const { connection } = testEnvironment().runtime.temporal;
    await connection.workflowService.registerNamespace({
      namespace,
      workflowExecutionRetentionPeriod: msToTs('1 day'),
    });
    const client = new Client({ connection, namespace });
    await eventually(
      () =>
        client.workflow.count().then(
          () => true,
          () => false,
        ),
      Boolean,
      'the new namespace to answer',
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    const app = await startSecondApp({}, { temporal: { ...testEnvironment().runtime.temporal, client } });
    try {
      await createUnavailable(app.url, account.api_key, notary.email);
    } finally {
      await app.close();
    }
  });

  it('the service namespace gone while it runs: creates and notary actions are clean 503s, no session rows', async () => {
    const { account, notary, id } = await teamNotarySession();
    // What a deleted namespace answers: the same Temporal server, a namespace it does not know.
    const { connection } = testEnvironment().runtime.temporal;
    const client = new Client({ connection, namespace: `gone-${crypto.randomUUID()}` });
    const app = await startSecondApp({}, { temporal: { ...testEnvironment().runtime.temporal, client } });
    try {
      await createUnavailable(app.url, account.api_key, notary.email);
      const cancelled = await fetch(`${app.url}/api/integrationsv2/sessions/${id}/cancel`, {
        method: 'POST',
        headers: { authorization: `Bearer ${account.api_key}`, 'content-type': 'application/json' },
        body: '{}',
      });
      assert.equal(cancelled.status, 503, await cancelled.clone().text());
      assert.equal(cancelled.headers.get('retry-after'), '5');
      assert.deepEqual(await cancelled.json(), {
        response: 'Fail',
        response_message: 'The session could not be reached in time; retry the request',
      });
    } finally {
      await app.close();
    }
  });

  it('PostgreSQL failing at commit: a clean 503, no rows, and the started workflow does not live on', async () => {
    const sequelize = testEnvironment().runtime.sequelize;
    const account = await createTestAccount();
    const notary = await addTeamNotary(account.account_id);
    const body = await sessionBody({ session_notary_email: notary.email });
    // A real commit-time failure: a deferred constraint trigger that refuses this one session.
    await sequelize.query(`
      CREATE FUNCTION refuse_commit_for_test() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.notarization_id = '${body.notarization_id}' THEN RAISE EXCEPTION 'commit refused by test'; END IF;
        RETURN NEW;
      END $$;
      CREATE CONSTRAINT TRIGGER refuse_commit_for_test AFTER INSERT ON sessions
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_commit_for_test();
    `);
    try {
      const res = await createSession(account.api_key, body);
      assert.equal(res.status, 503, res.text);
      assert.deepEqual(res.body, UNAVAILABLE_ANSWER);
    } finally {
      await sequelize.query(
        'DROP TRIGGER refuse_commit_for_test ON sessions; DROP FUNCTION refuse_commit_for_test();',
      );
    }
    assert.deepEqual(await sessionRows(body.notarization_id), []);
    // The workflow had been started inside the transaction; it must be gone, not waiting forever.
    const workflows = await eventually(
      () => workflowsOf(body.notarization_id),
      (w) => w.length && !w.some((x) => x.status === 'RUNNING'),
      'the workflow started in the failed transaction to close',
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    assert.equal(workflows.length, 1, 'the workflow was started');
    assert.notEqual(workflows[0].status, 'RUNNING');
    assert.match(workflows[0].workflowId, /^session-/);
  });
});
