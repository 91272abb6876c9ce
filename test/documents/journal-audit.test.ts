import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createTestAccount } from '../support/accounts';
import { b64, pdfBytes } from '../support/documents';
import { request } from '../support/http';
import { action, sessionBody, signer, waitForSession } from '../support/sessions';
import { launchMediaBrowser } from '../support/browser';
import { memberToken } from '../team/helpers';
import { completeRecordedAct } from '../media/helpers';
import {
  adminCli,
  inProgressSession,
  ISO_DATETIME_RE,
  notaryAccount,
  query,
  readySession,
  SESSIONS,
  type NotaryAccount,
} from './helpers';
import { eventually } from '../support/eventually';

const GENESIS = '0'.repeat(64);

const journal = (apiKey: string, id: string) => request(`${SESSIONS}/${id}/journal`, { auth: apiKey });
const audit = (apiKey: string, id: string) => request(`${SESSIONS}/${id}/audit`, { auth: apiKey });

/**
 * Waits until `event` is in the session's chain: the workflow records a status before it publishes the
 * event that goes with it, so a status seen through the API can precede its audit record.
 */
async function waitForAuditEvent(
  apiKey: string,
  id: string,
  event: string,
  timeoutMs?: number,
): Promise<any[]> {
  return eventually(
    async (): Promise<any[]> => (await audit(apiKey, id)).body.records ?? [],
    (records) => records.some((r) => r.event === event),
    `${event} in the audit trail of ${id}`,
    { timeoutMs },
  );
}

/** Asserts the chain links as stored: seq 1..n, genesis prev_hash, each prev_hash the previous hash. */
function assertLinked(records: any[]) {
  records.forEach((record, i) => {
    assert.equal(record.seq, i + 1, `record ${i} has seq ${record.seq}`);
    assert.match(record.hash, /^[0-9a-f]{64}$/);
    assert.equal(record.prev_hash, i === 0 ? GENESIS : records[i - 1].hash, `prev_hash of seq ${i + 1}`);
  });
  assert.equal(new Set(records.map((r) => r.hash)).size, records.length, 'every hash differs');
}

describe('journal and audit trail', function () {
  this.timeout(120_000);

  let notary: NotaryAccount;
  let sessionId: string;
  let completedAt: string;
  const first = {
    first_name: 'Ada',
    last_name: `Lovelace${crypto
      .randomUUID()
      .replace(/[^a-z]/g, '')
      .slice(0, 4)}`,
  };
  const second = { first_name: 'Alan', last_name: 'Turing' };

  before(async function () {
    this.timeout(180_000);
    // The journal is kept of live acts only: this one is recorded, as it would be for real.
    notary = await notaryAccount({ testMode: false });
    const body = await sessionBody({
      session_notary_email: notary.notaryEmail,
      notarization_types: 'Acknowledgement,Jurat',
      all_signers: [
        signer(0, { ...first, authentication_type: 'kba' }),
        signer(1, { ...second, authentication_type: 'biometrics' }),
      ],
      session_documents: [
        { name: 'deed.pdf', base64Doc: b64(await pdfBytes(2, undefined, `Deed ${crypto.randomUUID()}`)) },
        { name: 'note.txt', base64Doc: b64(Buffer.from(`Note ${crypto.randomUUID()}\n`)) },
      ],
    });
    const created = await inProgressSession(notary.apiKey, body);
    sessionId = created.bn_session_id;
    const browser = await launchMediaBrowser();
    try {
      await completeRecordedAct(browser, {
        id: sessionId,
        notaryToken: await memberToken(notary.vendorKey, notary.notaryEmail),
        signingUrl: created.bn_signing_url,
        otherSigningUrls: created.signing_urls
          .slice(1)
          .map((u: { bn_signing_url: string }) => u.bn_signing_url),
        complete: () => action(notary.apiKey, sessionId, 'complete'),
      });
    } finally {
      await browser.close();
    }
    completedAt = (
      await waitForSession(notary.apiKey, sessionId, (s) => s.documents_status === 'released', 120_000)
    ).completed_at;
    await waitForAuditEvent(notary.apiKey, sessionId, 'documents_released');
    // The chain is whole once the grid's event is in too: composed in the background, behind other tests' acts.
    await waitForAuditEvent(notary.apiKey, sessionId, 'rendition_available', 120_000);
  });

  describe('GET /sessions/{id}/journal', () => {
    it('has one entry per notarial act, with the contract fields', async () => {
      const res = await journal(notary.apiKey, sessionId);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.response, 'Pass');
      assert.equal(res.body.bn_session_id, sessionId);
      assert.deepEqual(
        res.body.entries.map((e: any) => e.act_type).sort(),
        ['Acknowledgement', 'Jurat'],
        'one entry per act of notarization_types',
      );
      for (const entry of res.body.entries) {
        assert.deepEqual(Object.keys(entry).sort(), [
          'act_type',
          'documents',
          'notary',
          'performed_at',
          'recording',
          'signers',
        ]);
        assert.match(entry.performed_at, ISO_DATETIME_RE);
        assert.equal(
          Date.parse(entry.performed_at),
          Date.parse(completedAt),
          'performed when the session completed',
        );
      }
    });

    it('names the signers and how their identity was established', async () => {
      const res = await journal(notary.apiKey, sessionId);
      for (const entry of res.body.entries) {
        assert.equal(entry.signers.length, 2, JSON.stringify(entry.signers));
        for (const s of entry.signers) assert.deepEqual(Object.keys(s).sort(), ['identity_method', 'name']);
        assert.equal(entry.signers[0].name, `${first.first_name} ${first.last_name}`);
        assert.match(
          entry.signers[0].identity_method,
          /^identity established by knowledge-based authentication, passed on attempt 1, \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
        );
        assert.equal(entry.signers[1].name, `${second.first_name} ${second.last_name}`);
        assert.match(
          entry.signers[1].identity_method,
          /^identity established by credential analysis of a government ID and a biometric match, passed on attempt 1, /,
        );
      }
    });

    it("records the notary's name, commission and venue", async () => {
      const res = await journal(notary.apiKey, sessionId);
      for (const entry of res.body.entries) {
        assert.deepEqual(Object.keys(entry.notary).sort(), [
          'commission_expires_on',
          'commission_number',
          'name',
          'venue_county',
          'venue_state',
        ]);
        assert.equal(entry.notary.name, notary.notaryName);
        assert.equal(entry.notary.commission_number, 'TX-123');
        assert.equal(entry.notary.commission_expires_on, '2030-01-31');
        assert.match(entry.notary.venue_state, /^(TX|Texas)$/);
        assert.equal(entry.notary.venue_county, 'Travis');
      }
    });

    it('records each document with the sha256 of the upload and of the notarized PDF', async () => {
      const rows = await query<{ name: string; original: string; notarized: string }>(
        `SELECT d.name, d.sha256 AS original, s.sha256 AS notarized FROM documents d
           JOIN signed_documents s ON s.document_id = d.id WHERE d.session_id = $1 ORDER BY d.position`,
        [sessionId],
      );
      assert.equal(rows.length, 2);
      const res = await journal(notary.apiKey, sessionId);
      for (const entry of res.body.entries) {
        assert.deepEqual(
          entry.documents,
          rows.map((r) => ({ name: r.name, original_sha256: r.original, notarized_sha256: r.notarized })),
        );
      }
      const listed = await request(`${SESSIONS}/${sessionId}/documents`, { auth: notary.apiKey });
      assert.deepEqual(
        listed.body.documents.map((d: any) => d.sha256),
        rows.map((r) => r.notarized),
        'the journal and the signed-document listing agree',
      );
    });

    it('is empty before completion', async () => {
      const created = await readySession(
        notary.apiKey,
        await sessionBody({ session_notary_email: notary.notaryEmail }),
      );
      const res = await journal(notary.apiKey, created.bn_session_id);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.entries, []);
    });

    it("is 404 'Session not found' for another account", async () => {
      const other = await createTestAccount();
      const res = await journal(other.api_key, sessionId);
      assert.equal(res.status, 404, res.text);
      assert.deepEqual(res.body, { response: 'Fail', response_message: 'Session not found' });
    });
  });

  describe('GET /sessions/{id}/audit', () => {
    it('has one record per session event, in order, from session_created to documents_released and the grid', async () => {
      const res = await audit(notary.apiKey, sessionId);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.body).sort(), ['bn_session_id', 'intact', 'records', 'response']);
      assert.equal(res.body.response, 'Pass');
      assert.equal(res.body.bn_session_id, sessionId);
      const records = res.body.records;
      const order: string[] = records.map((r: any) => r.event);
      // The session is ready at creation: the signer may join before the invitations are out. Who was on
      // camera in the live room comes and goes with the media server's events, in its own order.
      const presence = [
        'join_session',
        'identity_verified',
        'participant_connected',
        'participant_disconnected',
        // The grid is composed beside the documents' finalization: its event comes before or after theirs.
        'rendition_available',
      ];
      assert.deepEqual(
        order.filter((e) => !presence.includes(e)),
        [
          'session_created',
          'invites_sent',
          'notary_assigned',
          'session_started',
          'recording_started',
          // Each signer signs both documents (no annotations: once on the last page of each).
          'signature_applied',
          'signature_applied',
          'signer_completed',
          'signature_applied',
          'signature_applied',
          'signer_completed',
          'session_completed',
          'recording_available',
          'documents_released',
        ],
      );
      // Everyone of the act came on camera: the notary and both signers (contract §8).
      assert.deepEqual(
        [
          ...new Set(
            records
              .filter((r: any) => r.event === 'participant_connected')
              .map((r: any) => `${r.payload.data.role}${r.payload.data.index ?? ''}`),
          ),
        ].sort(),
        ['notary', 'signer0', 'signer1'],
      );
      assert.equal(order.filter((e) => e === 'rendition_available').length, 1);
      assert.ok(
        order.indexOf('rendition_available') > order.indexOf('recording_available'),
        order.join(' → '),
      );
      // Both signers join and pass their checks (KBA, an ID check) before the notary starts.
      assert.equal(order.filter((e) => e === 'join_session').length, 2);
      assert.equal(order.filter((e) => e === 'identity_verified').length, 2);
      assert.ok(order.lastIndexOf('identity_verified') < order.indexOf('session_started'), order.join(' → '));
      const events = await query<{ id: string; event: string; payload: unknown }>(
        'SELECT id, event, payload FROM events WHERE session_id = $1',
        [sessionId],
      );
      assert.equal(records.length, events.length, 'one record per event');
      for (const record of records) {
        assert.deepEqual(Object.keys(record).sort(), [
          'created_at',
          'event',
          'event_id',
          'hash',
          'payload',
          'prev_hash',
          'seq',
        ]);
        const event = events.find((e) => e.id === record.event_id);
        assert.ok(event, `record ${record.seq} is event ${record.event_id}`);
        assert.equal(record.event, event.event);
        assert.deepEqual(record.payload, event.payload, `record ${record.seq} holds the event as sent`);
        assert.match(record.created_at, ISO_DATETIME_RE);
      }
    });

    it('is a hash chain: seq 1..n, prev_hash of the first is 64 zeros, each prev_hash the previous hash', async () => {
      const res = await audit(notary.apiKey, sessionId);
      assertLinked(res.body.records);
      const stored = await query(
        'SELECT seq, event_id, prev_hash, hash FROM audit_records WHERE session_id = $1 ORDER BY seq',
        [sessionId],
      );
      assert.deepEqual(
        stored,
        res.body.records.map((r: any) => ({
          seq: r.seq,
          event_id: r.event_id,
          prev_hash: r.prev_hash,
          hash: r.hash,
        })),
        'the API shows the stored chain',
      );
    });

    it('says intact: true for an untouched chain, and verify-audit agrees (exit 0)', async () => {
      const res = await audit(notary.apiKey, sessionId);
      assert.equal(res.body.intact, true);
      const cli = await adminCli(['verify-audit', '--session', sessionId]);
      assert.equal(cli.code, 0, `exit ${cli.code}: ${cli.stdout} ${cli.stderr}`);
      assert.deepEqual(cli.json, { session_id: sessionId, intact: true, records: res.body.records.length });
    });

    it("is 404 'Session not found' for another account", async () => {
      const other = await createTestAccount();
      const res = await audit(other.api_key, sessionId);
      assert.equal(res.status, 404, res.text);
      assert.deepEqual(res.body, { response: 'Fail', response_message: 'Session not found' });
    });
  });

  describe('tampering with the audit trail', () => {
    /** A session of its own, with session_created, invites_sent and notary_assigned in its chain. */
    async function chainedSession(): Promise<string> {
      const created = await readySession(
        notary.apiKey,
        await sessionBody({ session_notary_email: notary.notaryEmail }),
      );
      const id = created.bn_session_id as string;
      await waitForAuditEvent(notary.apiKey, id, 'notary_assigned');
      const res = await audit(notary.apiKey, id);
      assert.equal(res.body.intact, true);
      assert.ok(res.body.records.length >= 3, `three records: ${res.text}`);
      return id;
    }

    it('an edited payload (seq 2) makes GET audit say intact: false and verify-audit exit 1 with broken_at_seq 2', async () => {
      const id = await chainedSession();
      await query(
        `UPDATE audit_records SET payload = jsonb_set(payload, '{status}', '"tampered"') WHERE session_id = $1 AND seq = 2`,
        [id],
      );
      const res = await audit(notary.apiKey, id);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.intact, false);
      assert.equal(res.body.records[1].payload.status, 'tampered', 'the edit is shown as stored');
      const cli = await adminCli(['verify-audit', '--session', id]);
      assert.equal(cli.code, 1, `exit ${cli.code}: ${cli.stdout} ${cli.stderr}`);
      assert.equal(cli.json?.session_id, id, cli.stdout);
      assert.equal(cli.json.intact, false);
      assert.equal(cli.json.broken_at_seq, 2);
      assert.equal(typeof cli.json.reason, 'string');
      assert.ok(cli.json.reason.length > 0);
    });

    it('a deleted middle record breaks the chain', async () => {
      const id = await chainedSession();
      await query('DELETE FROM audit_records WHERE session_id = $1 AND seq = 2', [id]);
      const res = await audit(notary.apiKey, id);
      assert.equal(res.body.intact, false);
      const cli = await adminCli(['verify-audit', '--session', id]);
      assert.equal(cli.code, 1, `exit ${cli.code}: ${cli.stdout} ${cli.stderr}`);
      assert.equal(cli.json.intact, false);
      assert.ok([2, 3].includes(cli.json.broken_at_seq), `broken at ${cli.json.broken_at_seq}`);
    });

    it('a rewritten hash (the last record) breaks the chain', async () => {
      const id = await chainedSession();
      const [last] = await query<{ seq: number }>(
        'SELECT max(seq)::int AS seq FROM audit_records WHERE session_id = $1',
        [id],
      );
      await query(`UPDATE audit_records SET hash = $2 WHERE session_id = $1 AND seq = $3`, [
        id,
        'f'.repeat(64),
        last.seq,
      ]);
      assert.equal((await audit(notary.apiKey, id)).body.intact, false);
      const cli = await adminCli(['verify-audit', '--session', id]);
      assert.equal(cli.code, 1, cli.stdout);
      assert.equal(cli.json.broken_at_seq, last.seq);
    });

    it('verify-audit on an unknown session exits 1 with an error', async () => {
      const unknown = crypto.randomUUID();
      const cli = await adminCli(['verify-audit', '--session', unknown]);
      assert.equal(cli.code, 1, `exit ${cli.code}: ${cli.stdout} ${cli.stderr}`);
      assert.equal(cli.stdout.trim(), '', 'no verdict is printed');
      assert.ok(cli.json?.error, `an error as JSON on stderr: ${cli.stderr}`);
      assert.match(cli.json.error, /not found/i);
    });
  });
});
