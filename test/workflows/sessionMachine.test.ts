import assert from 'node:assert/strict';
import {
  assertTransition,
  initialStatus,
  judgeActor,
  judgeJoin,
  judgeRequest,
  type SessionPlan,
  type SessionRequest,
  type Verdict,
} from '../../workflows/sessionMachine';
import type { DocumentsStatus, Joiner, SessionStatus } from '../../workflows/sessionDefinitions';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const plan: SessionPlan = {
  holdInvitesUntilPretagged: false,
  notary: { kind: 'team', memberId: 'm1' },
  deliveryMode: 'notary_manual',
};
const signer: Joiner = {
  role: 'signer',
  index: 0,
  email: 's@example.com',
  sameDeviceAll: false,
  isHost: false,
};

const short = (v: Verdict) => (v.outcome === 'allowed' ? 'ok' : v.outcome === 'already_done' ? 'done' : 'no');

/**
 * The machine's table: each state (a signer joined; completed sessions with their documents held)
 * against each request. ok = allowed, done = already done (answered with the state), no = refused.
 */
const TABLE: Record<SessionStatus, Record<SessionRequest | 'join', 'ok' | 'done' | 'no'>> = {
  // prettier-ignore
  awaiting_pretag: { pretagged: 'ok', start: 'no', complete: 'no', release_documents: 'no', cancel: 'ok', add_documents: 'ok', retry_finalization: 'no', join: 'no' },
  // prettier-ignore
  scheduled:       { pretagged: 'no', start: 'no', complete: 'no', release_documents: 'no', cancel: 'ok', add_documents: 'ok', retry_finalization: 'no', join: 'no' },
  // prettier-ignore
  awaiting_notary: { pretagged: 'no', start: 'no', complete: 'no', release_documents: 'no', cancel: 'ok', add_documents: 'ok', retry_finalization: 'no', join: 'done' },
  // prettier-ignore
  ready:           { pretagged: 'no', start: 'ok', complete: 'no', release_documents: 'no', cancel: 'ok', add_documents: 'ok', retry_finalization: 'no', join: 'done' },
  // prettier-ignore
  in_progress:     { pretagged: 'no', start: 'done', complete: 'ok', release_documents: 'no', cancel: 'ok', add_documents: 'no', retry_finalization: 'no', join: 'done' },
  // prettier-ignore
  completed:       { pretagged: 'no', start: 'done', complete: 'done', release_documents: 'ok', cancel: 'no', add_documents: 'no', retry_finalization: 'no', join: 'no' },
  // prettier-ignore
  expired:         { pretagged: 'no', start: 'no', complete: 'no', release_documents: 'no', cancel: 'no', add_documents: 'no', retry_finalization: 'no', join: 'no' },
  // prettier-ignore
  cancelled:       { pretagged: 'no', start: 'no', complete: 'no', release_documents: 'no', cancel: 'done', add_documents: 'no', retry_finalization: 'no', join: 'no' },
};

describe('session machine (pure rules)', () => {
  const state = (status: SessionStatus, documentsStatus: DocumentsStatus = 'pending') => ({
    status,
    documentsStatus,
    joined: [signer],
  });

  for (const [status, row] of Object.entries(TABLE) as Array<
    [SessionStatus, (typeof TABLE)[SessionStatus]]
  >) {
    it(`${status}: ${Object.entries(row)
      .map(([r, v]) => `${r}=${v}`)
      .join(' ')}`, () => {
      const s = state(status, status === 'completed' ? 'held' : 'pending');
      const actual = Object.fromEntries(
        Object.keys(row).map((request) => [
          request,
          short(
            request === 'join'
              ? judgeJoin(s, signer, undefined, NOW)
              : judgeRequest(s, plan, request as SessionRequest, NOW),
          ),
        ]),
      );
      assert.deepEqual(actual, row);
    });
  }

  it('documents: released is done, failed may be retried, and a release while pending is recorded', () => {
    assert.equal(short(judgeRequest(state('completed', 'released'), plan, 'release_documents', NOW)), 'done');
    assert.equal(short(judgeRequest(state('completed', 'pending'), plan, 'release_documents', NOW)), 'ok');
    assert.equal(short(judgeRequest(state('completed', 'failed'), plan, 'retry_finalization', NOW)), 'ok');
  });

  it('start needs a joined signer; a witness is not enough', () => {
    const verdict = judgeRequest(
      { status: 'ready', documentsStatus: 'pending', joined: [{ role: 'witness', index: 0, email: 'w@x' }] },
      plan,
      'start',
      NOW,
    );
    assert.deepEqual(verdict, {
      outcome: 'refused',
      refusal: { kind: 'not_now', reason: 'Session cannot be started before a signer has joined' },
    });
  });

  it('a refusal that waits on the service says what for and when to retry; one that waits on a person does not', () => {
    const scheduled = { ...plan, startAt: NOW + 90_500 };
    assert.deepEqual(judgeRequest(state('scheduled'), scheduled, 'start', NOW), {
      outcome: 'refused',
      refusal: {
        kind: 'not_now',
        reason: 'Session cannot be started while scheduled: it opens at 2026-11-23T12:01:30.500Z',
        retryAfterSeconds: 91,
      },
    });
    const notYet = judgeJoin(state('scheduled'), signer, scheduled.startAt, NOW);
    assert.equal(notYet.outcome === 'refused' && notYet.refusal.retryAfterSeconds, 91);
    const pretag = judgeRequest(state('awaiting_pretag'), plan, 'start', NOW);
    assert.equal(pretag.outcome === 'refused' && pretag.refusal.retryAfterSeconds, undefined);
  });

  it('same-device signing: only the host signer joins; witnesses join as usual', () => {
    const open = { status: 'ready' as const, documentsStatus: 'pending' as const, joined: [] };
    const guest = { ...signer, sameDeviceAll: true, isHost: false };
    assert.equal(short(judgeJoin(open, guest, undefined, NOW)), 'no');
    assert.equal(short(judgeJoin(open, { ...guest, isHost: true }, undefined, NOW)), 'ok');
    assert.equal(short(judgeJoin(open, { ...guest, role: 'witness' }, undefined, NOW)), 'ok');
  });

  it('actors: an admin does all, a pretagger only pretagged, a notary only on their sessions', () => {
    const member = (role: 'admin' | 'notary' | 'pretagger', memberId = 'm1') =>
      ({ kind: 'member', role, memberId }) as const;
    assert.equal(short(judgeActor({ kind: 'account' }, null, 'cancel')), 'ok');
    assert.equal(short(judgeActor(member('admin', 'm9'), 'm1', 'start')), 'ok');
    assert.equal(short(judgeActor(member('pretagger'), 'm1', 'pretagged')), 'ok');
    assert.equal(short(judgeActor(member('pretagger'), 'm1', 'start')), 'no');
    assert.equal(short(judgeActor(member('notary'), 'm1', 'start')), 'ok');
    assert.equal(short(judgeActor(member('notary', 'm2'), 'm1', 'start')), 'no');
  });

  it('the first state: pretag hold, then schedule, then a named notary is ready at once', () => {
    const network = { ...plan, notary: { kind: 'network' as const } };
    assert.equal(
      initialStatus({ ...plan, holdInvitesUntilPretagged: true, startAt: NOW + 1 }, NOW, true),
      'awaiting_pretag',
    );
    assert.equal(initialStatus({ ...plan, startAt: NOW + 1 }, NOW, true), 'scheduled');
    assert.equal(initialStatus({ ...plan, startAt: NOW - 1 }, NOW, true), 'ready');
    assert.equal(initialStatus(plan, NOW, false), 'awaiting_notary', 'sessions started before the rule');
    assert.equal(initialStatus(network, NOW, true), 'awaiting_notary');
  });

  it('transitions: forward moves and the two exits; no way back, nothing out of a final state', () => {
    assertTransition('ready', 'in_progress');
    assertTransition('ready', 'ready');
    assertTransition('in_progress', 'expired');
    assert.throws(() => assertTransition('in_progress', 'ready'), /cannot move from in_progress to ready/);
    assert.throws(() => assertTransition('completed', 'cancelled'));
    assert.throws(() => assertTransition('scheduled', 'completed'));
  });
});
