import { judgeCompletion } from '../../core/session/completion';
import assert from 'node:assert/strict';
import {
  judgeActor,
  judgeJoin,
  judgeRequest,
  type SessionRequest,
  type Verdict,
  judgeOfferAnswer,
  judgeIdentityOutcome,
  signerIsWaiting,
} from '../../core/session/machine';
import { judgePlacesChange, judgeSignature } from '../../core/session/signingRules';
import { assertTransition, initialStatus } from '../../core/session/statuses';
import { type CommissionOnFile } from '../../core/session/commission';
import type { SessionPlan } from '../../core/session/plan';
import {
  actIsRecorded,
  applyMediaEvent,
  emptyPresence,
  isMediaEvent,
  onCameraIn,
  participantOf,
} from '../../core/session/media';
import { placeKeyOf, placesOfDocument, signingTally, type SignerKey } from '../../core/session/signing';
import type { DocumentsStatus, Joiner, SessionStatus } from '../../core/session/messages';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const plan: SessionPlan = {
  holdInvitesUntilPretagged: false,
  notary: { kind: 'team', memberId: 'm1' },
  deliveryMode: 'notary_manual',
  primarySignerIndex: 0,
  witnessesRequired: 0,
  serviceWitnesses: 0,
  identityRequired: [],
  testMode: true,
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
  awaiting_pretag: { pretagged: 'ok', start: 'no', complete: 'no', release_documents: 'no', cancel: 'ok', add_documents: 'ok', retry_finalization: 'no', edit_places: 'no', join: 'no' },
  // prettier-ignore
  scheduled:       { pretagged: 'no', start: 'no', complete: 'no', release_documents: 'no', cancel: 'ok', add_documents: 'ok', retry_finalization: 'no', edit_places: 'no', join: 'no' },
  // prettier-ignore
  awaiting_notary: { pretagged: 'no', start: 'no', complete: 'no', release_documents: 'no', cancel: 'ok', add_documents: 'ok', retry_finalization: 'no', edit_places: 'no', join: 'done' },
  // prettier-ignore
  ready:           { pretagged: 'no', start: 'ok', complete: 'no', release_documents: 'no', cancel: 'ok', add_documents: 'ok', retry_finalization: 'no', edit_places: 'ok', join: 'done' },
  // prettier-ignore
  in_progress:     { pretagged: 'no', start: 'done', complete: 'ok', release_documents: 'no', cancel: 'ok', add_documents: 'no', retry_finalization: 'no', edit_places: 'ok', join: 'done' },
  // prettier-ignore
  completed:       { pretagged: 'no', start: 'done', complete: 'done', release_documents: 'ok', cancel: 'no', add_documents: 'no', retry_finalization: 'no', edit_places: 'no', join: 'no' },
  // prettier-ignore
  expired:         { pretagged: 'no', start: 'no', complete: 'no', release_documents: 'no', cancel: 'no', add_documents: 'no', retry_finalization: 'no', edit_places: 'no', join: 'no' },
  // prettier-ignore
  cancelled:       { pretagged: 'no', start: 'no', complete: 'no', release_documents: 'no', cancel: 'done', add_documents: 'no', retry_finalization: 'no', edit_places: 'no', join: 'no' },
};

describe('session machine (pure rules)', () => {
  const state = (status: SessionStatus, documentsStatus: DocumentsStatus = 'pending') => ({
    status,
    documentsStatus,
    joined: [signer],
    verified: [],
    recordingRunning: false,
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
      {
        status: 'ready',
        documentsStatus: 'pending',
        joined: [{ role: 'witness', index: 0, email: 'w@x' }],
        verified: [],
        recordingRunning: false,
      },
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
    const open = {
      status: 'ready' as const,
      documentsStatus: 'pending' as const,
      joined: [],
      verified: [],
      recordingRunning: false,
    };
    const guest = { ...signer, sameDeviceAll: true, isHost: false };
    assert.equal(short(judgeJoin(open, guest, undefined, NOW)), 'no');
    assert.equal(short(judgeJoin(open, { ...guest, isHost: true }, undefined, NOW)), 'ok');
    assert.equal(short(judgeJoin(open, { ...guest, role: 'witness' }, undefined, NOW)), 'ok');
  });

  it('actors: an admin does all, a pretagger only pretagged, a notary only on their sessions', () => {
    const member = (role: 'admin' | 'notary' | 'pretagger', memberId = 'm1') =>
      ({ kind: 'member', role, memberId }) as const;
    const team = { memberId: 'm1', networkNotaryId: null };
    assert.equal(
      short(judgeActor({ kind: 'account' }, { memberId: null, networkNotaryId: null }, 'cancel')),
      'ok',
    );
    assert.equal(short(judgeActor(member('admin', 'm9'), team, 'start')), 'ok');
    assert.equal(short(judgeActor(member('pretagger'), team, 'pretagged')), 'ok');
    assert.equal(short(judgeActor(member('pretagger'), team, 'start')), 'no');
    assert.equal(short(judgeActor(member('notary'), team, 'start')), 'ok');
    assert.equal(short(judgeActor(member('notary', 'm2'), team, 'start')), 'no');
  });

  it("actors: a network notary does the notary's part of the sessions they accepted, and nothing else", () => {
    const theirs = { memberId: null, networkNotaryId: 'n1' };
    const notary = (notaryId: string) => ({ kind: 'network_notary', notaryId }) as const;
    for (const request of ['pretagged', 'start', 'complete', 'release_documents'] as const)
      assert.equal(short(judgeActor(notary('n1'), theirs, request)), 'ok', request);
    assert.equal(short(judgeActor(notary('n1'), theirs, 'cancel')), 'no', "cancelling is the integrator's");
    assert.equal(short(judgeActor(notary('n2'), theirs, 'start')), 'no', "another notary's session");
    assert.equal(short(judgeActor(notary('n1'), { memberId: 'm1', networkNotaryId: null }, 'start')), 'no');
  });

  it('an accept wins only on the open offer made to that notary; a retried accept is already done', () => {
    const waiting = {
      status: 'awaiting_notary' as const,
      documentsStatus: 'pending' as const,
      joined: [signer],
      verified: [],
      recordingRunning: false,
    };
    assert.equal(
      short(judgeOfferAnswer(waiting, { openTo: 'n1', assignedTo: undefined }, 'n1', 'accept')),
      'ok',
    );
    assert.equal(
      short(judgeOfferAnswer(waiting, { openTo: 'n1', assignedTo: undefined }, 'n2', 'accept')),
      'no',
    );
    assert.equal(
      short(judgeOfferAnswer(waiting, { openTo: undefined, assignedTo: undefined }, 'n1', 'accept')),
      'no',
      'the offer expired',
    );
    const ready = { ...waiting, status: 'ready' as const };
    assert.equal(
      short(judgeOfferAnswer(ready, { openTo: undefined, assignedTo: 'n1' }, 'n1', 'accept')),
      'done',
    );
    assert.equal(
      short(judgeOfferAnswer(ready, { openTo: undefined, assignedTo: 'n1' }, 'n2', 'accept')),
      'no',
    );
    // A decline answers only the open offer made to the notary: never `already_done`.
    assert.equal(
      short(judgeOfferAnswer(waiting, { openTo: 'n1', assignedTo: undefined }, 'n1', 'decline')),
      'ok',
    );
    assert.equal(
      short(judgeOfferAnswer(waiting, { openTo: 'n2', assignedTo: undefined }, 'n1', 'decline')),
      'no',
    );
    assert.equal(
      short(judgeOfferAnswer(ready, { openTo: undefined, assignedTo: 'n1' }, 'n1', 'decline')),
      'no',
    );
  });

  it('an on-demand session goes to the network once its primary signer (or same-device host) waits', () => {
    const state = (joined: Joiner[]) => ({
      status: 'awaiting_notary' as const,
      documentsStatus: 'pending' as const,
      joined,
      verified: [],
      recordingRunning: false,
    });
    assert.equal(signerIsWaiting(state([]), plan), false);
    assert.equal(signerIsWaiting(state([{ ...signer, index: 1 }]), plan), false);
    assert.equal(signerIsWaiting(state([signer]), plan), true);
    assert.equal(signerIsWaiting(state([{ ...signer, index: 2 }]), { ...plan, primarySignerIndex: 2 }), true);
  });

  it('start waits for every required witness, invited and from the network', () => {
    const witness = (index: number): Joiner => ({ ...signer, role: 'witness', index });
    const ready = (joined: Joiner[]) => ({
      status: 'ready' as const,
      documentsStatus: 'pending' as const,
      joined,
      verified: [],
      recordingRunning: false,
    });
    const two = { ...plan, witnessesRequired: 2 };
    const refused = judgeRequest(ready([signer, witness(0)]), two, 'start', NOW);
    assert.equal(short(refused), 'no');
    assert.match(
      refused.outcome === 'refused' ? refused.refusal.reason : '',
      /before its witnesses have joined \(1 of 2\)/,
    );
    assert.equal(short(judgeRequest(ready([signer, witness(0), witness(1)]), two, 'start', NOW)), 'ok');
  });

  it('identity: a signer asked to verify waits for the network only once verified; start waits for everyone asked', () => {
    const witness: Joiner = { ...signer, role: 'witness', index: 0 };
    const asked = {
      ...plan,
      identityRequired: [
        { role: 'signer' as const, index: 0 },
        { role: 'witness' as const, index: 0 },
      ],
    };
    const at = (status: SessionStatus, verified: Array<{ role: 'signer' | 'witness'; index: number }>) => ({
      status,
      documentsStatus: 'pending' as const,
      joined: [signer, witness],
      verified,
      recordingRunning: false,
    });
    assert.equal(signerIsWaiting(at('awaiting_notary', []), asked), false, 'joined, not verified');
    assert.equal(signerIsWaiting(at('awaiting_notary', [{ role: 'signer', index: 0 }]), asked), true);
    const refused = judgeRequest(at('ready', [{ role: 'signer', index: 0 }]), asked, 'start', NOW);
    assert.deepEqual(refused, {
      outcome: 'refused',
      refusal: {
        kind: 'not_now',
        reason: 'Session cannot be started before every participant has verified their identity (1 of 2)',
      },
    });
    const everyone = [
      { role: 'signer' as const, index: 0 },
      { role: 'witness' as const, index: 0 },
    ];
    assert.equal(short(judgeRequest(at('ready', everyone), asked, 'start', NOW)), 'ok');
    assert.equal(short(judgeIdentityOutcome(at('ready', []), false)), 'ok');
    assert.equal(short(judgeIdentityOutcome(at('ready', []), true)), 'done', 'the same check reported twice');
    assert.equal(short(judgeIdentityOutcome(at('cancelled', []), false)), 'no');
  });

  it('the first state: pretag hold, then schedule, then a named notary is ready at once', () => {
    const network = { ...plan, notary: { kind: 'network' as const } };
    assert.equal(
      initialStatus({ ...plan, holdInvitesUntilPretagged: true, startAt: NOW + 1 }, NOW),
      'awaiting_pretag',
    );
    assert.equal(initialStatus({ ...plan, startAt: NOW + 1 }, NOW), 'scheduled');
    assert.equal(initialStatus({ ...plan, startAt: NOW - 1 }, NOW), 'ready');
    assert.equal(initialStatus(network, NOW), 'awaiting_notary');
  });

  it('transitions: forward moves and the two exits; no way back, nothing out of a final state', () => {
    assertTransition('ready', 'in_progress');
    assertTransition('ready', 'ready');
    assertTransition('in_progress', 'expired');
    assert.throws(() => assertTransition('in_progress', 'ready'), /cannot move from in_progress to ready/);
    assert.throws(() => assertTransition('completed', 'cancelled'));
    assert.throws(() => assertTransition('scheduled', 'completed'));
  });

  it('a live act completes only while its recording runs; a test-mode session has none to wait for', () => {
    const live = { ...plan, testMode: false };
    const inProgress = { ...state('in_progress'), recordingRunning: false };
    assert.deepEqual(judgeRequest(inProgress, live, 'complete', NOW), {
      outcome: 'refused',
      refusal: {
        kind: 'not_now',
        reason:
          'Session cannot be completed without a recording of the act: enter the live room with your camera and microphone on (in the console: Enter the live room)',
      },
    });
    // The notary is on camera and no signer is: the refusal says so (issue 70).
    const notaryAlone = judgeRequest({ ...inProgress, onCamera: ['notary'] }, live, 'complete', NOW);
    assert.equal(
      notaryAlone.outcome === 'refused' && notaryAlone.refusal.reason,
      'Session cannot be completed without a recording of the act: a signer must be on camera in the room',
    );
    const signed = { places: [], applied: [] };
    assert.equal(
      judgeRequest({ ...inProgress, recordingRunning: true, signing: signed }, live, 'complete', NOW).outcome,
      'allowed',
    );
    assert.equal(judgeRequest(inProgress, plan, 'complete', NOW).outcome, 'allowed', 'test mode');
    assert.equal(judgeRequest(state('completed'), live, 'complete', NOW).outcome, 'already_done');
  });

  it('a live act completes last of all once its notary has adopted a signature; test mode shows its absence (issue 69)', () => {
    const live = { ...plan, testMode: false };
    const ready = { ...state('in_progress'), recordingRunning: true, signing: { places: [], applied: [] } };
    const onFile = { expiresOn: '2099-12-31' };
    assert.deepEqual(judgeCompletion(ready, live, onFile, NOW, false), {
      outcome: 'refused',
      refusal: {
        kind: 'not_now',
        reason:
          'Session cannot be completed before the notary adopts a signature (in the console: Your signature)',
      },
    });
    assert.equal(judgeCompletion(ready, live, onFile, NOW, true).outcome, 'allowed');
    assert.equal(judgeCompletion(ready, plan, onFile, NOW, false).outcome, 'allowed', 'test mode');
    // The act's own conditions are told first: the recording, then the signatures.
    const unrecorded = judgeCompletion({ ...ready, recordingRunning: false }, live, onFile, NOW, false);
    assert.equal(
      unrecorded.outcome === 'refused' && unrecorded.refusal.reason,
      'Session cannot be completed without a recording of the act: enter the live room with your camera and microphone on (in the console: Enter the live room)',
    );
  });

  it('a live act completes once every signer and witness applied at every place of theirs', () => {
    const live = { ...plan, testMode: false };
    const place = (
      document: string,
      id: string,
      participant: SignerKey,
      kind: 'signature' | 'initials' = 'signature',
    ) => ({ document, place: id, participant, kind });
    const places = [
      place('d1', 'a', 'signer-0'),
      place('d1', 'b', 'signer-0', 'initials'),
      place('d2', 'c', 'signer-1'),
      place('d2', 'w', 'witness-0'),
    ];
    const running = { ...state('in_progress'), recordingRunning: true };
    const at = (applied: string[]) => ({ ...running, signing: { places, applied } });
    assert.deepEqual(judgeRequest(at(['d1/a', 'd2/c']), live, 'complete', NOW), {
      outcome: 'refused',
      refusal: {
        kind: 'not_now',
        reason: 'Session cannot be completed before every signer has signed (1 of 3)',
      },
    });
    assert.equal(
      judgeRequest(at(['d1/a', 'd1/b', 'd2/c', 'd2/w']), live, 'complete', NOW).outcome,
      'allowed',
    );
    assert.equal(judgeRequest(running, live, 'complete', NOW).outcome, 'refused', 'places not read yet');
    assert.equal(judgeSignature(at([]), plan, 'signer-0', 'd1/a').outcome, 'allowed');
    assert.equal(judgeSignature(at(['d1/a']), plan, 'signer-0', 'd1/a').outcome, 'already_done');
    assert.deepEqual(judgeSignature(at([]), plan, 'signer-1', 'd1/a'), {
      outcome: 'refused',
      refusal: { kind: 'forbidden', reason: 'This place is not yours to sign' },
    });
    assert.equal(judgeSignature({ ...at([]), status: 'ready' }, plan, 'signer-0', 'd1/a').outcome, 'refused');
    const asked = { ...plan, identityRequired: [{ role: 'signer' as const, index: 0 }] };
    assert.deepEqual(judgeSignature(at([]), asked, 'signer-0', 'd1/a'), {
      outcome: 'refused',
      refusal: { kind: 'not_now', reason: 'Verify your identity before you sign' },
    });
    const waived = { ...plan, notaryIdentifies: [{ role: 'signer' as const, index: 0 }] };
    assert.deepEqual(judgeSignature(at([]), waived, 'signer-0', 'd1/a'), {
      outcome: 'refused',
      refusal: { kind: 'not_now', reason: 'Your notary confirms who you are in the session before you sign' },
    });
    const identified = { ...at([]), verified: [{ role: 'signer' as const, index: 0 }] };
    assert.equal(judgeSignature(identified, waived, 'signer-0', 'd1/a').outcome, 'allowed');
    assert.equal(judgePlacesChange(at(['d1/a']), ['d1/a']).outcome, 'refused', 'a signed place stays');
    assert.equal(judgePlacesChange(at(['d1/a']), ['d1/b']).outcome, 'allowed');
    assert.equal(judgePlacesChange(state('completed'), []).outcome, 'refused');
    // A document that names a signer nowhere gets their signature on its last page.
    const annotations = [
      {
        id: 'x',
        fieldType: 'initials' as const,
        pageNum: 1,
        x: 1,
        y: 1,
        width: 9,
        height: 9,
        role: 'signer' as const,
        participant_index: 1,
      },
    ];
    assert.deepEqual(
      placesOfDocument({ id: 'd', annotations }, { signers: 2, witnesses: 0 }).map(placeKeyOf),
      ['d/x', 'd/default-signer-0'],
    );
    assert.deepEqual(signingTally({ places, applied: ['d2/w'] }), { done: 1, total: 3 });
  });

  it('the recording of the act: the room open, the notary and a signer on camera', () => {
    assert.equal(actIsRecorded(true, ['notary', 'signer-0']), true);
    assert.equal(actIsRecorded(true, ['notary', 'witness-0']), false, 'no signer');
    assert.equal(actIsRecorded(true, ['signer-1']), false, 'no notary');
    assert.equal(actIsRecorded(false, ['notary', 'signer-0']), false, 'the room is gone');
    assert.deepEqual(participantOf('witness-2'), { role: 'witness', index: 2 });
    assert.deepEqual(participantOf('notary'), { role: 'notary', index: null });
    const published = { segment: 1, identity: 'signer-0', feed: 'signer-0~a1', kind: 'published', at: 'x' };
    assert.equal(isMediaEvent(published), true);
    assert.equal(isMediaEvent({ ...published, segment: 0 }), false);
    assert.equal(isMediaEvent({ ...published, identity: 'admin' }), false);
    assert.equal(isMediaEvent({ ...published, feed: 'notary~a1' }), false, 'a feed is its identity’s');
    const receiving = { segment: 1, identity: 'notary', handle: '7', kind: 'receiving', at: 'x' };
    assert.equal(isMediaEvent({ ...receiving, media: 'video', receiving: false }), true);
    assert.equal(isMediaEvent({ ...receiving, media: 'screen', receiving: true }), false);
  });

  it('presence: on camera while a feed is published with audio and video received; a reload’s late leave hides nothing', () => {
    const presence = emptyPresence();
    const at = (s: number) => new Date(Date.UTC(2026, 10, 28, 12, 0, s)).toISOString();
    const feed = (f: string, kind: 'published' | 'unpublished', handle?: string, s = 0) =>
      applyMediaEvent(presence, { segment: 1, identity: 'signer-0', feed: f, handle, kind, at: at(s) });
    const media = (handle: string, m: 'audio' | 'video', receiving: boolean, s: number) =>
      applyMediaEvent(presence, {
        segment: 1,
        identity: 'signer-0',
        handle,
        kind: 'receiving',
        media: m,
        receiving,
        at: at(s),
      });
    assert.equal(feed('signer-0~a', 'published', '1'), undefined, 'published, nothing received yet');
    assert.equal(media('1', 'audio', true, 1), undefined, 'audio alone is not on camera');
    assert.equal(media('1', 'video', true, 2), 'arrived');
    assert.equal(media('1', 'video', false, 1), undefined, 'an older report changes nothing');
    // The page reloads: a new connection comes on camera before the old one's leave arrives.
    assert.equal(feed('signer-0~b', 'published', '2'), undefined);
    media('2', 'audio', true, 5);
    media('2', 'video', true, 5);
    assert.equal(feed('signer-0~a', 'unpublished'), undefined, 'still on camera through the new connection');
    assert.equal(feed('signer-0~a', 'published', '1'), undefined, 'an ended feed never returns');
    assert.deepEqual(onCameraIn(presence), ['signer-0']);
    assert.equal(media('2', 'video', false, 9), 'left', 'the camera stopped');
    assert.deepEqual(onCameraIn(presence), []);
  });

  it('a completion needs the commission on file and in force at the act: up to the instant it ends', () => {
    const inProgress = state('in_progress');
    const at = (iso: string, commission: CommissionOnFile) =>
      judgeCompletion(inProgress, plan, commission, Date.parse(iso), true);
    const expired = "Session cannot be completed: the notary's commission expired on 2026-12-31";
    // Guam's 2026-12-31 ends at 14:00 UTC, while UTC's day still runs for ten hours.
    const guam = { expiresOn: '2026-12-31', endsAt: Date.parse('2026-12-31T14:00:00Z') };
    assert.equal(short(at('2026-12-31T13:59:59.999Z', guam)), 'ok');
    const lapsed = at('2026-12-31T14:00:00.000Z', guam);
    assert.equal(lapsed.outcome === 'refused' && lapsed.refusal.reason, expired);
    // Hawaii's runs ten hours past UTC's.
    const hawaii = { expiresOn: '2026-12-31', endsAt: Date.parse('2027-01-01T10:00:00Z') };
    assert.equal(short(at('2027-01-01T09:59:59.999Z', hawaii)), 'ok');
    // A completion from an API that sent no end (before it judged jurisdictions' days): UTC's day.
    const utc = { expiresOn: '2026-12-31' };
    assert.equal(short(at('2026-12-31T23:59:59.999Z', utc)), 'ok');
    const lapsedUtc = at('2027-01-01T00:00:00.000Z', utc);
    assert.equal(lapsedUtc.outcome === 'refused' && lapsedUtc.refusal.reason, expired);
    const none = at('2026-12-31T12:00:00Z', { expiresOn: null });
    assert.equal(
      none.outcome === 'refused' && none.refusal.reason,
      "Session cannot be completed: the notary's commission is not on file (onboarding is pending)",
    );
    // The session's own answer comes first: a retried completion is answered, a wrong state refused as such.
    assert.equal(
      short(
        judgeCompletion(
          state('completed', 'released'),
          plan,
          { expiresOn: '2026-12-31' },
          Date.parse('2027-06-01T00:00:00Z'),
          true,
        ),
      ),
      'done',
    );
    const ready = judgeCompletion(state('ready'), plan, { expiresOn: null }, NOW, true);
    assert.equal(
      ready.outcome === 'refused' && ready.refusal.reason,
      'Session cannot be completed while ready',
    );
  });

  it('a completion of a session that asked for a state needs a commission from that state, from a named notary or the network', () => {
    const asked: SessionPlan = { ...plan, notary: { kind: 'network', state: 'TX' } };
    const inProgress = state('in_progress');
    const commission = (state?: string): CommissionOnFile => ({
      expiresOn: '2030-12-31',
      ...(state ? { state } : {}),
    });
    assert.equal(short(judgeCompletion(inProgress, asked, commission('TX'), NOW, true)), 'ok');
    const elsewhere = judgeCompletion(inProgress, asked, commission('WA'), NOW, true);
    assert.equal(
      elsewhere.outcome === 'refused' && elsewhere.refusal.reason,
      "Session cannot be completed: the session asks for a notary commissioned in TX, and the notary's commission is from WA",
    );
    const named: SessionPlan = { ...plan, notary: { kind: 'team', memberId: 'm1', state: 'TX' } };
    assert.equal(short(judgeCompletion(inProgress, named, commission('TX'), NOW, true)), 'ok');
    assert.equal(short(judgeCompletion(inProgress, named, commission('WA'), NOW, true)), 'no');
    // A completion from an API that sent no notary is judged by its expiry alone; a session that asked for
    // no state takes a commission of any.
    assert.equal(short(judgeCompletion(inProgress, asked, commission(), NOW, true)), 'ok');
    const anyState: SessionPlan = { ...plan, notary: { kind: 'network' } };
    assert.equal(short(judgeCompletion(inProgress, anyState, commission('WA'), NOW, true)), 'ok');
    assert.equal(short(judgeCompletion(inProgress, plan, commission('WA'), NOW, true)), 'ok');
  });
});
