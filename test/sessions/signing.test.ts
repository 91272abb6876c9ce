import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { request } from '../support/http';
import { action, createSession, getSession, signer, tokenOf, waitForSession } from '../support/sessions';
import { assertPass, DAY, isoIn, join, readySession, signingView, teamAccount, teamBody } from './helpers';

const VIEW_KEYS = [
  'bn_session_id',
  'status',
  'role',
  'index',
  'first_name',
  'last_name',
  'session_timing',
  'joined_at',
].sort();
/** What the signing page shows beside the contract's fields (issue 12). */
const JOURNEY_KEYS = [
  ...VIEW_KEYS,
  'step',
  'account',
  'documents',
  'notary',
  'identity',
  'same_device_signers',
  'notary_late',
  'notary_late_at',
  'delay_modal',
  // `test: true`: these tests run in a test-mode account.
  'test',
].sort();

function participantOf(session: any, role: string, index: number) {
  return session.participants.find((p: any) => p.role === role && p.index === index);
}

describe('signing links (contract §3)', function () {
  describe('GET /sign/{token}', () => {
    it('answers HTML by default and the participant as JSON with Accept: application/json', async () => {
      const { apiKey, notaryEmail } = await teamAccount();
      const created = await readySession(apiKey, await teamBody(notaryEmail));
      const token = tokenOf(created.bn_signing_url);

      const html = await request(`/sign/${token}`);
      assert.equal(html.status, 200, html.text);
      assert.match(html.headers.get('content-type') ?? '', /text\/html/, 'HTML by default');
      assert.match(html.text, /<html/i);
      assert.match(html.text, /First0/, 'the page greets its participant');

      const json = await signingView(token);
      assert.equal(json.status, 200, json.text);
      assert.match(json.headers.get('content-type') ?? '', /application\/json/);
      assert.deepEqual(Object.keys(json.body).sort(), JOURNEY_KEYS, `JSON fields: ${json.text}`);
      const contract = Object.fromEntries(VIEW_KEYS.map((key) => [key, json.body[key]]));
      assert.deepEqual(contract, {
        bn_session_id: created.bn_session_id,
        status: 'ready',
        role: 'signer',
        index: 0,
        first_name: 'First0',
        last_name: 'Last0',
        session_timing: null,
        joined_at: null,
      });
      assert.equal(json.body.step, 'join');
      assert.deepEqual(json.body.documents, [{ name: 'deed.pdf', pages: 2 }]);
      assert.deepEqual(json.body.identity.status, 'waived', 'the test signer is asked no check (skip)');
    });

    it('each token reaches only its own participant', async () => {
      const { apiKey, notaryEmail } = await teamAccount();
      const witnesses = [0, 1].map((j) => ({
        email: `wit${j}-${crypto.randomUUID().slice(0, 6)}@example.com`,
        firstname: `Wit${j}`,
        lastname: `Ness${j}`,
      }));
      const created = await readySession(
        apiKey,
        await teamBody(notaryEmail, {
          all_signers: [signer(0), signer(1), signer(2)],
          witnesses: { invited_witness_details: witnesses },
        }),
      );
      for (const u of created.signing_urls) {
        const view = await signingView(tokenOf(u.bn_signing_url));
        assert.equal(view.status, 200, view.text);
        assert.equal(view.body.role, 'signer', `signer ${u.signer_index} token`);
        assert.equal(
          view.body.index,
          u.signer_index,
          `signer ${u.signer_index} token reaches index ${view.body.index}`,
        );
        assert.equal(view.body.first_name, `First${u.signer_index}`);
        assert.equal(view.body.bn_session_id, created.bn_session_id);
      }
      for (const [j, u] of created.witnessess_signing_urls.entries()) {
        const view = await signingView(tokenOf(u.bn_signing_url));
        assert.equal(view.status, 200, view.text);
        assert.equal(view.body.role, 'witness', `witness ${j} token`);
        assert.equal(view.body.index, j);
        assert.equal(view.body.first_name, `Wit${j}`);
        assert.equal(view.body.last_name, `Ness${j}`);
      }
    });

    it('shows session_timing of a scheduled session', async () => {
      const { apiKey, notaryEmail } = await teamAccount();
      const timing = isoIn(DAY);
      const res = await createSession(
        apiKey,
        await teamBody(notaryEmail, { notarization_timing_type: 'notarize_later', session_timing: timing }),
      );
      assertPass(res);
      await waitForSession(apiKey, res.body.bn_session_id, (s) => s.status === 'scheduled');
      const view = await signingView(tokenOf(res.body.bn_signing_url));
      assert.equal(view.status, 200, view.text);
      assert.equal(view.body.status, 'scheduled');
      assert.equal(Date.parse(view.body.session_timing), Date.parse(timing));
      await action(apiKey, res.body.bn_session_id, 'cancel');
    });

    it('an unknown token is 404 (JSON and HTML)', async () => {
      const unknown = crypto.randomBytes(32).toString('base64url');
      for (const token of [unknown, 'abc', `${unknown}x`]) {
        const json = await signingView(token);
        assert.equal(json.status, 404, `GET /sign/${token} — expected 404, got ${json.status} ${json.text}`);
        assert.equal(json.body.response, 'Fail');
        const html = await request(`/sign/${token}`);
        assert.equal(html.status, 404, `HTML GET /sign/${token}`);
      }
      const joined = await join(unknown);
      assert.equal(joined.status, 404, `join with an unknown token — expected 404, got ${joined.status}`);
    });
  });

  describe('POST /sign/{token}/join', () => {
    it('records joined_at, visible in GET /sessions/{id}, and is idempotent', async () => {
      const { apiKey, notaryEmail } = await teamAccount();
      const created = await readySession(
        apiKey,
        await teamBody(notaryEmail, { all_signers: [signer(0), signer(1)] }),
      );
      const token = tokenOf(created.signing_urls[1].bn_signing_url);

      const first = await join(token);
      assert.equal(first.status, 200, first.text);
      const afterFirst = (await getSession(apiKey, created.bn_session_id)).body;
      const joinedAt = participantOf(afterFirst, 'signer', 1).joined_at;
      assert.ok(
        joinedAt && !Number.isNaN(Date.parse(joinedAt)),
        `signer 1 joined_at is a date-time: ${joinedAt}`,
      );
      assert.equal(
        participantOf(afterFirst, 'signer', 0).joined_at,
        null,
        'only the joining participant is marked',
      );

      const second = await join(token);
      assert.equal(second.status, 200, second.text);
      const afterSecond = (await getSession(apiKey, created.bn_session_id)).body;
      assert.equal(
        participantOf(afterSecond, 'signer', 1).joined_at,
        joinedAt,
        'a second join keeps the first joined_at',
      );

      const view = await signingView(token);
      assert.equal(view.body.joined_at, joinedAt, 'the signing view shows joined_at');
    });

    it('a witness can join', async () => {
      const { apiKey, notaryEmail } = await teamAccount();
      const created = await readySession(
        apiKey,
        await teamBody(notaryEmail, { witnesses: { invited_witness_details: [{ email: 'w@example.com' }] } }),
      );
      const res = await join(tokenOf(created.witnessess_signing_urls[0].bn_signing_url));
      assert.equal(res.status, 200, res.text);
      const session = (await getSession(apiKey, created.bn_session_id)).body;
      assert.ok(participantOf(session, 'witness', 0).joined_at, 'witness joined_at recorded');
      assert.equal(participantOf(session, 'signer', 0).joined_at, null);
    });

    it('is 409 while invitations are held for pretagging (awaiting_pretag)', async () => {
      const { apiKey, notaryEmail } = await teamAccount();
      const res = await createSession(
        apiKey,
        await teamBody(notaryEmail, { send_invite_after_pretagging: true }),
      );
      assertPass(res);
      const id = res.body.bn_session_id;
      await waitForSession(apiKey, id, (s) => s.status === 'awaiting_pretag');
      const token = tokenOf(res.body.bn_signing_url);
      const joined = await join(token);
      assert.equal(
        joined.status,
        409,
        `join while awaiting_pretag — expected 409, got ${joined.status} ${joined.text}`,
      );
      assert.equal(joined.body.response, 'Fail');
      const session = (await getSession(apiKey, id)).body;
      assert.equal(participantOf(session, 'signer', 0).joined_at, null, 'a refused join records nothing');

      // Once pretagged, the session opens and the same link joins.
      const pretagged = await action(apiKey, id, 'pretagged');
      assert.equal(pretagged.status, 200, pretagged.text);
      await waitForSession(apiKey, id, (s) => s.status === 'ready');
      assert.equal((await join(token)).status, 200, 'join after pretagging');
    });

    it('is 409 before session_timing (scheduled)', async () => {
      const { apiKey, notaryEmail } = await teamAccount();
      const res = await createSession(
        apiKey,
        await teamBody(notaryEmail, {
          notarization_timing_type: 'notarize_later',
          session_timing: isoIn(DAY),
        }),
      );
      assertPass(res);
      const id = res.body.bn_session_id;
      await waitForSession(apiKey, id, (s) => s.status === 'scheduled');
      const joined = await join(tokenOf(res.body.bn_signing_url));
      assert.equal(
        joined.status,
        409,
        `join while scheduled — expected 409, got ${joined.status} ${joined.text}`,
      );
      assert.equal(joined.body.response, 'Fail');
      const session = (await getSession(apiKey, id)).body;
      assert.equal(participantOf(session, 'signer', 0).joined_at, null);
      await action(apiKey, id, 'cancel');
    });

    describe("same-device signing (same_device_signing_mode 'all')", () => {
      it('only the is_shared_device_owner signer (the host) can join; another signer gets 409', async () => {
        const { apiKey, notaryEmail } = await teamAccount();
        const created = await readySession(
          apiKey,
          await teamBody(notaryEmail, {
            all_signers: [signer(0), signer(1, { is_shared_device_owner: true }), signer(2)],
            session_configurations: { same_device_signing_mode: 'all' },
          }),
        );
        const [s0, s1, s2] = created.signing_urls.map((u: any) => tokenOf(u.bn_signing_url));
        const notHost = await join(s0);
        assert.equal(
          notHost.status,
          409,
          `signer 0 (not host) — expected 409, got ${notHost.status} ${notHost.text}`,
        );
        assert.equal((await join(s2)).status, 409, 'signer 2 (not host) gets 409');
        const host = await join(s1);
        assert.equal(host.status, 200, `the host joins: ${host.text}`);
        const session = (await getSession(apiKey, created.bn_session_id)).body;
        assert.ok(participantOf(session, 'signer', 1).joined_at);
        assert.equal(participantOf(session, 'signer', 0).joined_at, null);
        assert.equal(participantOf(session, 'signer', 2).joined_at, null);
      });

      it('without is_shared_device_owner the first signer is host', async () => {
        const { apiKey, notaryEmail } = await teamAccount();
        const created = await readySession(
          apiKey,
          await teamBody(notaryEmail, {
            all_signers: [signer(0), signer(1)],
            session_configurations: { same_device_signing_mode: 'all' },
          }),
        );
        const [s0, s1] = created.signing_urls.map((u: any) => tokenOf(u.bn_signing_url));
        const other = await join(s1);
        assert.equal(
          other.status,
          409,
          `signer 1 (not host) — expected 409, got ${other.status} ${other.text}`,
        );
        const host = await join(s0);
        assert.equal(host.status, 200, `the first signer is host and joins: ${host.text}`);
      });

      it('outside same-device mode every signer can join', async () => {
        const { apiKey, notaryEmail } = await teamAccount();
        const created = await readySession(
          apiKey,
          await teamBody(notaryEmail, { all_signers: [signer(0), signer(1)] }),
        );
        for (const u of created.signing_urls) {
          const res = await join(tokenOf(u.bn_signing_url));
          assert.equal(res.status, 200, `signer ${u.signer_index}: ${res.text}`);
        }
      });
    });

    it('after cancel: join is 409 and GET /sign is 410', async () => {
      const { apiKey, notaryEmail } = await teamAccount();
      const created = await readySession(
        apiKey,
        await teamBody(notaryEmail, { all_signers: [signer(0), signer(1)] }),
      );
      const [s0, s1] = created.signing_urls.map((u: any) => tokenOf(u.bn_signing_url));
      assert.equal((await join(s0)).status, 200, 'signer 0 joins before the cancel');

      const cancelled = await action(apiKey, created.bn_session_id, 'cancel');
      assert.equal(cancelled.status, 200, cancelled.text);
      await waitForSession(apiKey, created.bn_session_id, (s) => s.status === 'cancelled');

      for (const [label, token] of [
        ['signer 0 (had joined)', s0],
        ['signer 1', s1],
      ]) {
        const joined = await join(token);
        assert.equal(
          joined.status,
          409,
          `${label} join after cancel — expected 409, got ${joined.status} ${joined.text}`,
        );
        const view = await signingView(token);
        assert.equal(
          view.status,
          410,
          `${label} GET /sign after cancel — expected 410, got ${view.status} ${view.text}`,
        );
        assert.equal(view.body.response, 'Fail');
        const html = await request(`/sign/${token}`);
        assert.equal(html.status, 410, `${label} HTML GET /sign after cancel`);
      }
      const session = (await getSession(apiKey, created.bn_session_id)).body;
      assert.equal(participantOf(session, 'signer', 1).joined_at, null, 'a refused join records nothing');
    });
  });
});
