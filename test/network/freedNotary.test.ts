import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createTestAccount } from '../support/accounts';
import { testEnvironment } from '../support/environment';
import { eventually } from '../support/eventually';
import { sessionBody, action } from '../support/sessions';
import { recordHistory } from '../support/histories';
import { startOwnQueue, type SecondApp } from '../support/secondApp';
import { meAction, networkNotary, offersTo, signerJoins, waitForRelation } from './helpers';

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

  /** An on-demand session for a Utah notary on this file's queue, whose signer waits. */
  async function waitingSession(apiKey: string): Promise<string> {
    const res = await fetch(`${app.url}/api/integrationsv2/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(await sessionBody({ state_specific_notary: 'UT' })),
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
});
