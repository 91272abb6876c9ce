import assert from 'node:assert/strict';
import { admin } from '../support/adminCli';
import { addTeamNotary } from '../support/accounts';
import { request } from '../support/http';
import {
  action,
  createSession,
  joinSession,
  sessionBody,
  tokenOf,
  waitForSession,
} from '../support/sessions';
import { subscribe, WebhookReceiver } from '../support/webhookReceiver';
import { downloadAll, pdftotext, squash } from '../documents/helpers';

const API = '/api/integrationsv2';
const STAMP = 'TEST - NOT A NOTARIAL ACT';

describe('test mode: an integrator runs the whole lifecycle through the API, with no media and no notarial act (issue 60)', function () {
  this.timeout(120_000);
  const receiver = new WebhookReceiver();
  let hookUrl: string;
  before(async () => {
    hookUrl = await receiver.start();
  });
  after(() => receiver.stop());

  it('create-account --test-mode: test: true everywhere, every page stamped, no journal, no room, no recording', async () => {
    const made = await admin(['create-account', '--name', 'Sandbox Title', '--test-mode']);
    assert.equal(made.code, 0, made.stderr);
    assert.equal(made.json.test_mode, true);
    const apiKey = made.json.api_key as string;
    const notary = await addTeamNotary(made.json.account_id);
    await subscribe(apiKey, hookUrl, [
      'session_created',
      'session_started',
      'session_completed',
      'documents_released',
    ]);

    const created = await createSession(apiKey, await sessionBody({ session_notary_email: notary.email }));
    assert.equal(created.status, 200, created.text);
    assert.equal(created.body.test, true);
    const id = created.body.bn_session_id as string;
    await waitForSession(apiKey, id, (s) => s.status === 'ready');
    assert.equal((await request(`${API}/sessions/${id}`, { auth: apiKey })).body.test, true);
    assert.equal((await joinSession(created.body.bn_signing_url)).status, 200);

    // Every other rule holds: nothing completes before it starts.
    assert.equal((await action(apiKey, id, 'complete')).status, 409);
    assert.equal((await action(apiKey, id, 'start')).status, 200);
    const pass = await request(`/sign/${tokenOf(created.body.bn_signing_url)}/media`, { body: {} });
    assert.equal(pass.status, 409);
    assert.match(pass.body.response_message, /test-mode session has no live room/);
    const completed = await action(apiKey, id, 'complete');
    assert.equal(completed.status, 200, 'no recording is asked of a test-mode act');
    await waitForSession(apiKey, id, (s) => s.documents_status === 'released', 60_000);

    const [pdf] = (await downloadAll(apiKey, id)).files;
    const pages = (await pdftotext(pdf.bytes)).split('\f').filter((page) => page.trim());
    assert.ok(pages.length >= 3, 'two document pages and the certificate');
    pages.forEach((page, i) =>
      assert.ok(squash(page).includes(STAMP), `page ${i + 1}: ${squash(page).slice(0, 200)}`),
    );
    assert.doesNotMatch(squash(pages.at(-1)!), /using audio-video communication/);

    assert.deepEqual((await request(`${API}/sessions/${id}/journal`, { auth: apiKey })).body.entries, []);
    const recording = await request(`${API}/sessions/${id}/recording`, { auth: apiKey });
    assert.equal(recording.status, 404);
    const hooks = await receiver.waitFor((r) =>
      ['session_created', 'session_started', 'session_completed', 'documents_released'].every((e) =>
        r.some((h) => h.json.bn_session_id === id && h.json.event === e),
      ),
    );
    const mine = hooks.filter((h) => h.json.bn_session_id === id);
    assert.ok(
      mine.every((h) => h.json.test === true),
      JSON.stringify(mine.map((h) => h.json)),
    );
  });

  it('a live account’s sessions say nothing of test mode, and complete only with a recording', async () => {
    const made = await admin(['create-account', '--name', 'Live Title']);
    const notary = await addTeamNotary(made.json.account_id);
    const created = await createSession(
      made.json.api_key,
      await sessionBody({ session_notary_email: notary.email }),
    );
    assert.equal(created.body.test, undefined);
    const id = created.body.bn_session_id as string;
    await waitForSession(made.json.api_key, id, (s) => s.status === 'ready');
    assert.equal((await joinSession(created.body.bn_signing_url)).status, 200);
    assert.equal((await action(made.json.api_key, id, 'start')).status, 200);
    const refused = await action(made.json.api_key, id, 'complete');
    assert.equal(refused.status, 409);
    assert.equal(
      refused.body.response_message,
      'Session cannot be completed without a recording of the act: enter the live room with your camera and microphone on (in the console: Enter the live room)',
    );
  });
});
