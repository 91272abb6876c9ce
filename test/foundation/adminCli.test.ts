import assert from 'node:assert/strict';
import { request } from '../support/http';
import { testEnvironment } from '../support/environment';
import { admin, type CliResult } from '../support/adminCli';
import { untilBlockedOnLock } from '../support/locks';
import { createTestAccount } from '../support/accounts';
import { freePort } from '../support/freePort';
import { action, createSession, sessionBody } from '../support/sessions';

/** add-network-notary with valid names, varying what the test is about. */
const networkNotaryArgs = (state: string, expiresOn: string) => [
  'add-network-notary',
  ...['--email', 'x@example.com', '--first-name', 'A', '--last-name', 'B', '--state', state],
  ...['--commission-number', '1', '--commission-expires-on', expiresOn],
];

describe('admin CLI', function () {
  this.timeout(60_000);

  it('create-account prints the account id and both keys as JSON, and they work', async () => {
    const result = await admin([
      'create-account',
      '--name',
      'Acme Title',
      '--auto-onboarding',
      '--base-url',
      'https://sign.acme.test',
      '--completion-redirect-url',
      'https://acme.test/done',
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(Object.keys(result.json).sort(), [
      'account_id',
      'api_key',
      'test_mode',
      'vendor_api_key',
    ]);
    assert.equal(result.json.test_mode, false, 'accounts are live unless asked otherwise');
    assert.match(result.json.api_key, /^nsk_/);
    assert.match(result.json.vendor_api_key, /^nvk_/);
    assert.equal((await request('/api/integrationsv2/sessions', { auth: result.json.api_key })).status, 200);
    assert.equal(
      (await request('/api/integrationsv2/team_members', { auth: result.json.vendor_api_key })).status,
      200,
    );
    const [rows] = (await testEnvironment().runtime.sequelize.query(
      'SELECT name, auto_onboarding, white_label_base_url, completion_redirect_url, test_mode FROM accounts WHERE id = $1',
      { bind: [result.json.account_id] },
    )) as [any[], unknown];
    assert.deepEqual(rows[0], {
      name: 'Acme Title',
      auto_onboarding: true,
      white_label_base_url: 'https://sign.acme.test',
      completion_redirect_url: 'https://acme.test/done',
      test_mode: false,
    });
    const admins = await request('/api/integrationsv2/team_members?role=admin', {
      auth: result.json.vendor_api_key,
    });
    assert.equal(admins.body.data.length, 1, 'every account gets an owner admin');
  });

  it('rotate-key replaces one kind of key; the old one stops working', async () => {
    const created = (await admin(['create-account', '--name', 'Rotating'])).json;
    const rotated = await admin(['rotate-key', '--account', created.account_id, '--kind', 'api']);
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.deepEqual(Object.keys(rotated.json), ['api_key']);
    assert.equal((await request('/api/integrationsv2/sessions', { auth: created.api_key })).status, 401);
    assert.equal((await request('/api/integrationsv2/sessions', { auth: rotated.json.api_key })).status, 200);
    const vendor = await admin(['rotate-key', '--account', created.account_id, '--kind', 'vendor']);
    assert.deepEqual(Object.keys(vendor.json), ['vendor_api_key']);
    assert.equal(
      (await request('/api/integrationsv2/team_members', { auth: created.vendor_api_key })).status,
      401,
    );
    assert.equal(
      (await request('/api/integrationsv2/team_members', { auth: vendor.json.vendor_api_key })).status,
      200,
    );
  });

  it('add-network-notary adds a notary to the on-demand network, once per e-mail', async () => {
    const email = `cli-${Date.now()}@example.com`;
    const args = [
      'add-network-notary',
      '--email',
      email,
      '--first-name',
      'Cli',
      '--last-name',
      'Notary',
      '--state',
      'OR',
      '--commission-number',
      'OR-77',
      '--commission-expires-on',
      '2031-06-30',
    ];
    const added = await admin(args);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.json.notary_id, /^[0-9a-f-]{36}$/);
    const again = await admin(args);
    assert.equal(again.code, 1);
    assert.match(again.json.error, /already exists/);
  });

  it('add-network-notary with Temporal unreachable keeps the notary and warns that waiting sessions find them later', async () => {
    const email = `cli-untold-${Date.now()}@example.com`;
    const closed = `127.0.0.1:${await freePort()}`;
    const added = await admin(
      [
        'add-network-notary',
        ...['--email', email, '--first-name', 'Cli', '--last-name', 'Untold', '--state', 'OR'],
        ...['--commission-number', 'OR-79', '--commission-expires-on', '2031-06-30'],
      ],
      { ...testEnvironment().processEnv, TEMPORAL_ADDRESS: closed },
    );
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.json.notary_id, /^[0-9a-f-]{36}$/);
    assert.equal(added.json.waiting_sessions_told, null);
    assert.match(
      added.stderr.trim(),
      new RegExp(
        `^warning: Temporal at ${closed} cannot be reached \\(.+\\): start it or fix TEMPORAL_ADDRESS\\. ` +
          'Sessions waiting for a notary are offered this one at their next attempt \\(NOTARY_RETRY_INTERVAL\\) instead of at once\\.$',
      ),
    );
    const roster = await admin(['list-network']);
    assert.ok(roster.json.notaries.some((n: { email: string }) => n.email === email));
  });

  it('renew-network-notary records a network notary’s renewed commission; their state waits for their unfinished session and open offer; an unknown e-mail is not found', async () => {
    const email = `cli-renew-${Date.now()}@example.com`;
    const added = await admin(
      networkNotaryArgs('OR', '2026-01-31').map((a) => (a === 'x@example.com' ? email : a)),
    );
    assert.equal(added.code, 0, added.stderr);
    const renew = (extra: string[]) =>
      admin(['renew-network-notary', '--email', email, '--commission-number', 'OR-78', ...extra]);
    const renewed = await renew(['--commission-expires-on', '2030-01-31']);
    assert.equal(renewed.code, 0, renewed.stderr);
    // Sessions waiting for any notary, left by other tests, may be among those told.
    const { waiting_sessions_told, ...commission } = renewed.json;
    assert.ok(Array.isArray(waiting_sessions_told));
    assert.deepEqual(commission, {
      notary_id: added.json.notary_id,
      state: 'OR',
      commission_number: 'OR-78',
      commission_expires_on: '2030-01-31',
    });
    // The e-mail as the operator types it: its case does not matter, as for every other command.
    const shouted = await admin([
      'renew-network-notary',
      ...['--email', email.toUpperCase(), '--commission-number', 'OR-78'],
      ...['--commission-expires-on', '2030-02-28'],
    ]);
    assert.equal(shouted.code, 0, shouted.stderr);
    assert.equal(shouted.json.notary_id, added.json.notary_id);
    const moved = await renew(['--state', 'Washington', '--commission-expires-on', '2031-01-31']);
    assert.equal(moved.code, 0, moved.stderr);
    assert.equal(moved.json.state, 'WA');

    // Holding a session not yet finished, which may have asked for a notary of their state, they keep it.
    const account = await createTestAccount();
    const created = await createSession(account.api_key, await sessionBody());
    assert.equal(created.status, 200, created.text);
    await testEnvironment().runtime.sequelize.query(
      'UPDATE sessions SET network_notary_id = $1 WHERE id = $2',
      {
        bind: [added.json.notary_id, created.body.bn_session_id],
      },
    );
    const refused = await renew(['--state', 'OR', '--commission-expires-on', '2031-01-31']);
    assert.equal(refused.code, 1);
    assert.equal(
      refused.json.error,
      `The network notary ${email} has an unfinished session or an open offer: their state can change once it is over`,
    );
    const sameState = await renew(['--state', 'WA', '--commission-expires-on', '2032-01-31']);
    assert.equal(sameState.code, 0, sameState.stderr);
    assert.equal(sameState.json.commission_expires_on, '2032-01-31');
    await action(account.api_key, created.body.bn_session_id, 'cancel');

    // Nor while a session's offer is open to them; once it has moved on, the state can change.
    const offeredEmail = `cli-offered-${Date.now()}@example.com`;
    const offeredNotary = await admin(
      networkNotaryArgs('OR', '2030-01-31').map((a) => (a === 'x@example.com' ? offeredEmail : a)),
    );
    const offered = await createSession(account.api_key, await sessionBody());
    const db = testEnvironment().runtime.sequelize;
    await db.query(
      `INSERT INTO notary_offers (session_id, notary_id, expires_at) VALUES ($1, $2, now() + interval '2 minutes')`,
      { bind: [offered.body.bn_session_id, offeredNotary.json.notary_id] },
    );
    const moveOffered = () =>
      admin([
        'renew-network-notary',
        ...['--email', offeredEmail, '--state', 'WA'],
        ...['--commission-number', 'WA-1', '--commission-expires-on', '2031-01-31'],
      ]);
    const whileOffered = await moveOffered();
    assert.equal(whileOffered.code, 1);
    assert.match(whileOffered.json.error, /has an unfinished session or an open offer/);
    await db.query(`UPDATE notary_offers SET outcome = 'withdrawn' WHERE notary_id = $1`, {
      bind: [offeredNotary.json.notary_id],
    });
    const afterOffer = await moveOffered();
    assert.equal(afterOffer.code, 0, afterOffer.stderr);
    assert.equal(afterOffer.json.state, 'WA');
    await action(account.api_key, offered.body.bn_session_id, 'cancel');
    assert.equal((await renew(['--commission-expires-on', '31/01/2031'])).code, 2, 'not a date');
    const unknown = await admin([
      'renew-network-notary',
      '--email',
      'nobody-renews@example.com',
      '--commission-number',
      '1',
      '--commission-expires-on',
      '2030-01-31',
    ]);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.json.error, 'No network notary with e-mail nobody-renews@example.com');
  });

  it('renew-network-notary waits for an offer being made to the notary, and then keeps their state', async () => {
    const email = `cli-racing-${Date.now()}@example.com`;
    const notary = await admin(
      networkNotaryArgs('OR', '2030-01-31').map((a) => (a === 'x@example.com' ? email : a)),
    );
    assert.equal(notary.code, 0, notary.stderr);
    const account = await createTestAccount();
    const session = await createSession(account.api_key, await sessionBody());
    const db = testEnvironment().runtime.sequelize;
    let renewal: Promise<CliResult> | undefined;
    // What the dispatch does when it offers a session: the notary's row locked, then the offer written,
    // in one transaction. The renewal starts before that transaction commits.
    await db.transaction(async (transaction) => {
      await db.query('SELECT 1 FROM network_notaries WHERE id = $1 FOR UPDATE', {
        bind: [notary.json.notary_id],
        transaction,
      });
      await db.query(
        `INSERT INTO notary_offers (session_id, notary_id, expires_at)
           VALUES ($1, $2, now() + interval '2 minutes')`,
        { bind: [session.body.bn_session_id, notary.json.notary_id], transaction },
      );
      renewal = admin([
        'renew-network-notary',
        ...['--email', email, '--state', 'WA'],
        ...['--commission-number', 'WA-2', '--commission-expires-on', '2031-01-31'],
      ]);
      await untilBlockedOnLock(
        '%network_notaries%',
        'the renewal to wait for the notary being offered a session',
      );
    });
    const refused = await renewal!;
    assert.equal(refused.code, 1, refused.stdout);
    assert.match(refused.json.error, /has an unfinished session or an open offer/);
    const [[kept]] = (await db.query(
      'SELECT state, commission_number FROM network_notaries WHERE email = $1',
      {
        bind: [email],
      },
    )) as [Array<{ state: string; commission_number: string }>, unknown];
    assert.deepEqual(kept, { state: 'OR', commission_number: '1' });
    await action(account.api_key, session.body.bn_session_id, 'cancel');
  });

  it('refuses bad arguments with exit code 2 and a JSON error', async () => {
    for (const args of [
      ['create-account'],
      ['rotate-key', '--account', 'not-a-uuid', '--kind', 'api'],
      ['rotate-key', '--account', '00000000-0000-0000-0000-000000000000', '--kind', 'other'],
      networkNotaryArgs('OR', '31/12/2030'),
      networkNotaryArgs('US', '2030-12-31'),
      ['no-such-command'],
    ]) {
      const result = await admin(args);
      assert.equal(result.code, 2, args.join(' '));
      assert.equal(typeof result.json.error, 'string', args.join(' '));
      assert.equal(result.stderr.trim().split('\n').length, 1, `one line: ${result.stderr}`);
    }
    const bare = await admin([]);
    assert.equal(bare.code, 2, 'no command is a usage error');
    assert.match(bare.stderr, /^Usage: admin /);
    const help = await admin(['help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: admin /);
    const missing = await admin([
      'rotate-key',
      '--account',
      '00000000-0000-0000-0000-000000000000',
      '--kind',
      'api',
    ]);
    assert.equal(missing.code, 1);
    assert.match(missing.json.error, /not found/);
  });

  it('without DATABASE_URL, uses the embedded PostgreSQL of a running instance with the same DATA_DIR', async () => {
    const env = testEnvironment();
    const { DATABASE_URL: _ignored, ...withoutUrl } = env.processEnv;
    const result = await admin(['create-account', '--name', 'Embedded'], withoutUrl);
    assert.equal(result.code, 0, result.stderr);
    assert.equal((await request('/api/integrationsv2/sessions', { auth: result.json.api_key })).status, 200);
  });
});
