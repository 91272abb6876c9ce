import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createTestAccount } from '../support/accounts';
import { testEnvironment } from '../support/environment';
import { eventually } from '../support/eventually';
import { sessionBody, action } from '../support/sessions';
import { recordHistory } from '../support/histories';
import { startOwnQueue, type SecondApp } from '../support/secondApp';
import { admin } from '../support/adminCli';
import { meAction, networkNotary, offersTo, signIn, signerJoins, waitForRelation } from './helpers';

const HOUR_MS = 3_600_000;
// Utah is this file's own state. A session another test left waiting with no state may be offered its
// notary first, for one offer timeout each (5 s in the suite): the deadlines leave room for several.
const TOLD_WITHIN_MS = 60_000;

/**
 * On a queue whose sessions ask the network again only after an hour, and whose offers and assignments
 * last as long: a session that finds no notary free is offered one within seconds of one becoming free,
 * or not before the hour.
 */
describe('a network notary who becomes free is offered at once to a session waiting for one', function () {
  this.timeout(300_000);
  const queue = `freed-notary-${crypto.randomUUID()}`;
  let app: SecondApp;
  before(async () => {
    app = await startOwnQueue(queue, {
      notaryRetryIntervalMs: HOUR_MS,
      notaryOfferTimeoutMs: HOUR_MS,
      notaryStartTimeoutMs: HOUR_MS,
    });
  });
  after(() => app?.close());

  /** An on-demand session for a notary of `state` (Utah unless said) on this file's queue, whose signer waits. */
  async function waitingSession(apiKey: string, state = 'UT'): Promise<string> {
    const res = await fetch(`${app.url}/api/integrationsv2/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(await sessionBody({ state_specific_notary: state })),
    });
    const created = (await res.json()) as { bn_session_id: string; bn_signing_url: string };
    assert.equal(res.status, 200, JSON.stringify(created));
    assert.equal((await signerJoins(created)).status, 200);
    return created.bn_session_id;
  }

  /** Waits until the session has asked the network and found nobody free: it then waits the hour. */
  async function foundNobody(sessionId: string): Promise<void> {
    await eventually(
      async () => {
        const [rows] = await testEnvironment().runtime.sequelize.query(
          `SELECT notary_sought_since IS NOT NULL AS sought,
                  EXISTS (SELECT 1 FROM notary_offers WHERE session_id = $1 AND outcome = 'open') AS offered
             FROM sessions WHERE id = $1`,
          { bind: [sessionId] },
        );
        return rows[0] as { sought: boolean; offered: boolean };
      },
      (s) => s.sought && !s.offered,
      `session ${sessionId} to find no notary free`,
      { timeoutMs: 30_000 },
    );
  }

  /** Which of the sessions is offered to the notary first. */
  async function offeredOneOf(token: string, sessionIds: string[]): Promise<string> {
    const offered = await eventually(
      async () => (await offersTo(token)).filter((id) => sessionIds.includes(id)),
      (ids) => ids.length > 0,
      'one of the waiting sessions to be offered',
      { timeoutMs: TOLD_WITHIN_MS },
    );
    assert.equal(offered.length, 1, 'one offer open to a notary at a time');
    return offered[0];
  }

  it('when they decline another session, and when the session they hold ends', async () => {
    const account = await createTestAccount();
    const notary = await networkNotary('UT');
    const first = await waitingSession(account.api_key);
    await waitForRelation(notary.token, first, 'offered', TOLD_WITHIN_MS);

    // Two more wait while the notary holds the first's offer.
    const waiting = [await waitingSession(account.api_key), await waitingSession(account.api_key)];
    for (const id of waiting) await foundNobody(id);

    assert.equal((await meAction(notary.token, first, 'decline')).status, 200);
    const offered = await offeredOneOf(notary.token, waiting);
    assert.equal((await meAction(notary.token, offered, 'accept')).status, 200);

    // The session they hold ends: the one still waiting is offered them.
    assert.equal((await action(account.api_key, offered, 'cancel')).status, 200);
    const other = waiting.find((id) => id !== offered)!;
    await waitForRelation(notary.token, other, 'offered', TOLD_WITHIN_MS);
    // The first, which they declined, is not offered to them again.
    const [offers] = await testEnvironment().runtime.sequelize.query(
      `SELECT session_id, outcome FROM notary_offers WHERE notary_id = $1 ORDER BY offered_at`,
      { bind: [notary.id] },
    );
    assert.deepEqual(
      offers.filter((o: any) => [first, ...waiting].includes(o.session_id)),
      [
        { session_id: first, outcome: 'declined' },
        { session_id: offered, outcome: 'accepted' },
        { session_id: other, outcome: 'open' },
      ],
    );
    for (const id of [first, other]) assert.equal((await action(account.api_key, id, 'cancel')).status, 200);
    await recordHistory('session-network-notary-freed', `session-${other}`);
  });

  it('when an operator adds them, or renews their lapsed commission, with the admin CLI', async () => {
    const account = await createTestAccount();
    // Iowa is this case's own state: nobody is commissioned there yet.
    const waiting = [
      await waitingSession(account.api_key, 'IA'),
      await waitingSession(account.api_key, 'IA'),
    ];
    for (const id of waiting) await foundNobody(id);

    const email = `added-ia-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const added = await admin([
      'add-network-notary',
      ...['--email', email, '--first-name', 'Ada', '--last-name', 'Iowa', '--state', 'IA'],
      ...['--commission-number', 'IA-1', '--commission-expires-on', '2099-12-31'],
    ]);
    assert.equal(added.code, 0, added.stderr);
    // Both are told, the one that has waited longer first (sessions left waiting by other tests may be too).
    assert.deepEqual(
      added.json.waiting_sessions_told.filter((id: string) => waiting.includes(id)),
      waiting,
    );
    const notary = await signIn(email);
    const offered = await offeredOneOf(notary.token, waiting);

    // Arkansas: a notary whose commission has lapsed is offered nothing until its renewal is recorded.
    const lapsed = await networkNotary('AR', '2020-01-31');
    const inArkansas = await waitingSession(account.api_key, 'AR');
    await foundNobody(inArkansas);
    const renewed = await admin([
      'renew-network-notary',
      ...['--email', lapsed.email, '--commission-number', 'AR-2', '--commission-expires-on', '2099-12-31'],
    ]);
    assert.equal(renewed.code, 0, renewed.stderr);
    assert.ok(renewed.json.waiting_sessions_told.includes(inArkansas));
    await waitForRelation(lapsed.token, inArkansas, 'offered', TOLD_WITHIN_MS);

    for (const id of [...waiting, inArkansas])
      assert.equal((await action(account.api_key, id, 'cancel')).status, 200);
    assert.ok(waiting.includes(offered));
  });
});
