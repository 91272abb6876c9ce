import assert from 'node:assert/strict';
import { addTeamNotary, createTestAccount } from '../support/accounts';
import { request } from '../support/http';
import { action, createSession, sessionBody, tokenOf, waitForSession } from '../support/sessions';
import { testEnvironment } from '../support/environment';
import { recordHistory } from '../support/histories';
import { startWorker } from '../../worker/createWorker';

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
    await new Promise((r) => setTimeout(r, 3_500));
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
