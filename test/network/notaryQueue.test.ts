import assert from 'node:assert/strict';
import { admin } from '../support/adminCli';
import { createTestAccount } from '../support/accounts';
import { eventually } from '../support/eventually';
import { action } from '../support/sessions';
import { networkNotary, onDemandSession, signerJoins } from './helpers';

/**
 * `admin notary-queue`: the operator sees who waits for a network notary, longest first, whom each is
 * offered to, and whether anyone in the network may take them at all. Louisiana is this file's own state.
 */
describe('the on-demand queue, as the admin CLI lists it', function () {
  this.timeout(120_000);

  const queue = async (...args: string[]) => {
    const listed = await admin(['notary-queue', ...args]);
    assert.equal(listed.code, 0, listed.stderr);
    return listed.json.sessions as Array<{
      bn_session_id: string;
      account: { id: string; name: string };
      state: string | null;
      waiting_since: string;
      open_offer: { notary_email: string; expires_at: string } | null;
      commissioned_notaries: number;
    }>;
  };

  it('lists waiting sessions longest first, with their integrator and offer, and whether any notary may take them', async () => {
    const account = await createTestAccount({ name: 'Bayou Title' });
    const sessions = [
      await onDemandSession(account.api_key, 'LA'),
      await onDemandSession(account.api_key, 'LA'),
    ];
    assert.deepEqual(await queue('--state', 'LA'), [], 'nobody waits before a signer joins');
    for (const s of sessions) assert.equal((await signerJoins(s)).status, 200);
    const ids = sessions.map((s) => s.bn_session_id);

    // Nobody in the network is commissioned in Louisiana: the operator sees the queue cannot move.
    const stuck = await eventually(
      () => queue('--state', 'Louisiana'),
      (listed) => listed.length === 2,
      'both sessions in the queue',
      { timeoutMs: 30_000 },
    );
    assert.deepEqual(
      stuck.map((s) => s.bn_session_id),
      ids,
    );
    for (const s of stuck) {
      assert.deepEqual(s.account, { id: account.account_id, name: 'Bayou Title' });
      assert.equal(s.state, 'LA');
      assert.equal(s.open_offer, null);
      assert.equal(s.commissioned_notaries, 0);
    }
    assert.ok(Date.parse(stuck[0].waiting_since) <= Date.parse(stuck[1].waiting_since));
    // Without --state, they are there among any others waiting.
    const all = (await queue()).map((s) => s.bn_session_id);
    assert.deepEqual(
      all.filter((id) => ids.includes(id)),
      ids,
    );

    // A Louisiana notary joins the network: one of the two is offered to them, the other waits for them.
    const notary = await networkNotary('LA');
    const offered = await eventually(
      () => queue('--state', 'LA'),
      (listed) => listed.some((s) => s.open_offer?.notary_email === notary.email),
      'an offer to the Louisiana notary',
      { timeoutMs: 30_000, intervalMs: 0 },
    );
    assert.deepEqual(
      offered.map((s) => s.commissioned_notaries),
      [1, 1],
    );
    assert.ok(Date.parse(offered.find((s) => s.open_offer)!.open_offer!.expires_at) > Date.now() - 60_000);

    for (const id of ids) assert.equal((await action(account.api_key, id, 'cancel')).status, 200);
    await eventually(
      () => queue('--state', 'LA'),
      (listed) => listed.length === 0,
      'the queue to empty',
      { timeoutMs: 30_000 },
    );
  });

  it('refuses a state or a limit it cannot read', async () => {
    for (const args of [
      ['--state', 'Atlantis'],
      ['--limit', '0'],
      ['--limit', '1001'],
      ['--limit', 'ten'],
    ]) {
      const refused = await admin(['notary-queue', ...args]);
      assert.equal(refused.code, 2, args.join(' '));
      assert.equal(typeof refused.json.error, 'string');
    }
    const one = await queue('--limit', '1');
    assert.ok(one.length <= 1);
  });
});
