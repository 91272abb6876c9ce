import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createTestAccount } from '../support/accounts';
import { b64, pdfBytes, PNG_1x1 } from '../support/documents';
import { request } from '../support/http';
import {
  action,
  createSession,
  getSession,
  notarizationId,
  sessionBody,
  signer,
  waitForSession,
} from '../support/sessions';
import { assertPass, DAY, isoIn, readySession, SESSIONS, teamAccount, teamBody, UUID_RE } from './helpers';

const SESSION_KEYS = [
  'response',
  'bn_session_id',
  'notarization_id',
  'status',
  'documents_status',
  'signing_type',
  'session_type',
  'notarization_timing_type',
  'session_timing',
  'expires_at',
  'notary',
  'participants',
  'documents',
  'created_at',
  'updated_at',
  'completed_at',
  // The contract's fields, and `test: true`: these tests run in a test-mode account.
  'test',
].sort();
const PARTICIPANT_KEYS = [
  'role',
  'index',
  'email',
  'first_name',
  'last_name',
  'joined_at',
  'consented_at',
  'signed_at',
].sort();
const DOCUMENT_KEYS = [
  'document_id',
  'name',
  'content_type',
  'size_bytes',
  'places_done',
  'places_total',
].sort();
const NOTARY_KEYS = ['email', 'name', 'source'].sort();
const NOT_FOUND = { response: 'Fail', response_message: 'Session not found' };
const ACTIONS = ['pretagged', 'start', 'complete', 'release_documents', 'cancel'];

const keys = (o: object) => Object.keys(o).sort();
const isIso = (v: unknown) =>
  typeof v === 'string' && !Number.isNaN(Date.parse(v)) && /T.*(Z|[+-]\d\d:?\d\d)$/.test(v);

function list(apiKey: string, params: Record<string, string | number> = {}) {
  const qs = new URLSearchParams(
    Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();
  return request(`${SESSIONS}${qs ? `?${qs}` : ''}`, { auth: apiKey });
}

describe('session lookup and list (contract §2)', function () {
  describe('GET /sessions/{id}', () => {
    it('returns the contract shape with the session, its notary, participants and documents', async () => {
      const { apiKey, notaryEmail } = await teamAccount();
      const expiry = isoIn(DAY);
      const signers = [signer(0), signer(1)];
      const witness = {
        email: `wit-${crypto.randomUUID().slice(0, 6)}@example.com`,
        firstname: 'Wendy',
        lastname: 'Witness',
      };
      const pdf = await pdfBytes(2);
      const body = await teamBody(notaryEmail, {
        all_signers: signers,
        witnesses: { invited_witness_details: [witness] },
        session_documents: [
          { name: 'deed.pdf', base64Doc: b64(pdf) },
          { name: 'id.png', base64Doc: b64(PNG_1x1) },
        ],
        session_configurations: { auto_expire_session_on: expiry },
      });
      const created = await readySession(apiKey, body);
      const res = await getSession(apiKey, created.bn_session_id);
      assertPass(res, 'GET session');
      const s = res.body;
      assert.deepEqual(keys(s), SESSION_KEYS, 'top-level fields of contract §2');
      assert.equal(s.bn_session_id, created.bn_session_id);
      assert.equal(s.notarization_id, body.notarization_id);
      assert.equal(s.status, 'ready');
      assert.equal(s.documents_status, 'pending');
      assert.equal(s.signing_type, 'ron');
      assert.equal(s.session_type, 'gnw');
      assert.equal(s.notarization_timing_type, 'notarize_now');
      assert.equal(s.session_timing, null, 'notarize_now has no session_timing');
      assert.ok(isIso(s.expires_at), `expires_at is ISO 8601: ${s.expires_at}`);
      assert.equal(Date.parse(s.expires_at), Date.parse(expiry), 'expires_at is auto_expire_session_on');
      assert.ok(isIso(s.created_at), `created_at: ${s.created_at}`);
      assert.ok(isIso(s.updated_at), `updated_at: ${s.updated_at}`);
      assert.ok(Date.parse(s.updated_at) >= Date.parse(s.created_at), 'updated_at >= created_at');
      assert.equal(s.completed_at, null);

      assert.ok(s.notary, 'a ready session has its notary');
      assert.deepEqual(keys(s.notary), NOTARY_KEYS);
      assert.deepEqual(s.notary, { email: notaryEmail, name: 'Nora Notary', source: 'team' });

      assert.equal(s.participants.length, 3, 'two signers and one invited witness');
      s.participants.forEach((p: any) =>
        assert.deepEqual(keys(p), PARTICIPANT_KEYS, `participant fields: ${JSON.stringify(p)}`),
      );
      const byRef = (role: string, index: number) =>
        s.participants.find((p: any) => p.role === role && p.index === index);
      for (const [i, sg] of signers.entries()) {
        assert.deepEqual(byRef('signer', i), {
          role: 'signer',
          index: i,
          email: sg.email,
          first_name: sg.first_name,
          last_name: sg.last_name,
          joined_at: null,
          consented_at: null,
          signed_at: null,
        });
      }
      assert.deepEqual(byRef('witness', 0), {
        role: 'witness',
        index: 0,
        email: witness.email,
        first_name: 'Wendy',
        last_name: 'Witness',
        joined_at: null,
        consented_at: null,
        signed_at: null,
      });

      assert.equal(s.documents.length, 2);
      s.documents.forEach((d: any) => {
        assert.deepEqual(keys(d), DOCUMENT_KEYS, `document fields: ${JSON.stringify(d)}`);
        assert.match(d.document_id, UUID_RE);
      });
      assert.deepEqual(
        s.documents.map((d: any) => [d.name, d.content_type, d.size_bytes]),
        [
          ['deed.pdf', 'application/pdf', pdf.length],
          ['id.png', 'image/png', PNG_1x1.length],
        ],
      );
    });

    it('a notarize_later session shows its session_timing as the same instant, and status scheduled', async () => {
      const { apiKey, notaryEmail } = await teamAccount();
      const timing = '2030-01-01T10:00:00-05:00';
      const res = await createSession(
        apiKey,
        await teamBody(notaryEmail, { notarization_timing_type: 'notarize_later', session_timing: timing }),
      );
      assertPass(res);
      const s = await waitForSession(apiKey, res.body.bn_session_id, (x) => x.status === 'scheduled');
      assert.equal(s.notarization_timing_type, 'notarize_later');
      assert.ok(isIso(s.session_timing), `session_timing is ISO 8601 with an offset: ${s.session_timing}`);
      assert.equal(Date.parse(s.session_timing), Date.parse(timing));
      assert.equal(s.expires_at, null);
      await action(apiKey, res.body.bn_session_id, 'cancel');
    });

    it('notary is null while no notary is assigned (network session held for pretagging)', async () => {
      const { apiKey } = await teamAccount();
      const res = await createSession(apiKey, await sessionBody({ send_invite_after_pretagging: true }));
      assertPass(res);
      const s = await waitForSession(apiKey, res.body.bn_session_id, (x) => x.status === 'awaiting_pretag');
      assert.equal(s.notary, null);
      const cancelled = await action(apiKey, res.body.bn_session_id, 'cancel');
      assert.equal(cancelled.status, 200, cancelled.text);
    });
  });

  describe('404 Session not found on every session route', () => {
    let apiKeyA: string;
    let apiKeyB: string;
    let sessionOfA: string;
    let docBody: Record<string, unknown>;

    before(async () => {
      const a = await teamAccount();
      apiKeyA = a.apiKey;
      apiKeyB = (await createTestAccount()).api_key;
      const created = await readySession(apiKeyA, await teamBody(a.notaryEmail));
      sessionOfA = created.bn_session_id;
      docBody = { session_documents: [{ name: 'extra.pdf', base64Doc: b64(await pdfBytes(1)) }] };
    });

    const routes = (
      id: string,
    ): Array<[string, { method: 'GET' | 'POST'; path: string; body?: unknown }]> => [
      ['GET /sessions/{id}', { method: 'GET', path: `${SESSIONS}/${id}` }],
      [
        'POST /sessions/{id}/documents',
        { method: 'POST', path: `${SESSIONS}/${id}/documents`, body: docBody },
      ],
      ...ACTIONS.map(
        (a) =>
          [
            `POST /sessions/{id}/${a}`,
            { method: 'POST' as const, path: `${SESSIONS}/${id}/${a}`, body: {} },
          ] as [string, { method: 'POST'; path: string; body: unknown }],
      ),
    ];

    const ids: Array<[string, () => string, () => string]> = [
      ["another account's session", () => sessionOfA, () => apiKeyB],
      ['an unknown UUID', () => crypto.randomUUID(), () => apiKeyA],
      ['a malformed id', () => 'not-a-uuid', () => apiKeyA],
      ['a numeric id', () => '12345', () => apiKeyA],
      ['an almost-UUID', () => `${crypto.randomUUID().slice(0, -1)}g`, () => apiKeyA],
    ];

    for (const [label, id, key] of ids) {
      it(`${label}`, async () => {
        for (const [route, r] of routes(id())) {
          const res = await request(r.path, { auth: key(), method: r.method, body: r.body });
          assert.equal(
            res.status,
            404,
            `${route} with ${label} — expected 404, got ${res.status} ${res.text}`,
          );
          assert.deepEqual(res.body, NOT_FOUND, `${route} with ${label}`);
        }
      });
    }

    it("another account's calls changed nothing in the session", async () => {
      const s = await getSession(apiKeyA, sessionOfA);
      assert.equal(s.status, 200);
      assert.equal(s.body.status, 'ready', 'not cancelled, not started by the other account');
      assert.equal(s.body.documents.length, 1, 'no document was added by the other account');
    });
  });

  describe('GET /sessions (list)', () => {
    let apiKey: string;
    let shared: string;
    let unique: string;
    let ids: string[];
    let cancelledId: string;

    before(async function () {
      this.timeout(60_000);
      const team = await teamAccount();
      apiKey = team.apiKey;
      shared = notarizationId();
      unique = notarizationId();
      ids = [];
      for (const nid of [shared, shared, unique]) {
        const res = await createSession(apiKey, await teamBody(team.notaryEmail, { notarization_id: nid }));
        assertPass(res);
        ids.push(res.body.bn_session_id);
      }
      cancelledId = ids[1];
      const cancelled = await action(apiKey, cancelledId, 'cancel');
      assert.equal(cancelled.status, 200, cancelled.text);
      await waitForSession(apiKey, cancelledId, (s) => s.status === 'cancelled');
    });

    it('has the pagination shape {data, pagination:{page, limit, total_items, total_pages}} with defaults 1 and 25', async () => {
      const res = await list(apiKey);
      assert.equal(res.status, 200, res.text);
      assert.ok(Array.isArray(res.body.data));
      assert.deepEqual(res.body.pagination, { page: 1, limit: 25, total_items: 3, total_pages: 1 });
      assert.deepEqual(res.body.data.map((s: any) => s.bn_session_id).sort(), [...ids].sort());
      for (const item of res.body.data) {
        assert.ok(ids.includes(item.bn_session_id));
        assert.equal(typeof item.status, 'string');
        assert.equal(typeof item.notarization_id, 'string');
      }
    });

    it('filters by notarization_id', async () => {
      const res = await list(apiKey, { notarization_id: shared });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.data.map((s: any) => s.bn_session_id).sort(), [ids[0], ids[1]].sort());
      assert.ok(res.body.data.every((s: any) => s.notarization_id === shared));
      assert.equal(res.body.pagination.total_items, 2);
    });

    it('filters by status, and by both', async () => {
      const cancelled = await list(apiKey, { status: 'cancelled' });
      assert.equal(cancelled.status, 200, cancelled.text);
      assert.deepEqual(
        cancelled.body.data.map((s: any) => s.bn_session_id),
        [cancelledId],
      );
      assert.equal(cancelled.body.data[0].status, 'cancelled');
      assert.equal(cancelled.body.pagination.total_items, 1);

      const both = await list(apiKey, { status: 'cancelled', notarization_id: unique });
      assert.equal(both.status, 200);
      assert.deepEqual(both.body.data, []);
      assert.equal(both.body.pagination.total_items, 0);
    });

    it('pages: full pages, the last page, and an empty page beyond the end', async () => {
      const page1 = await list(apiKey, { limit: 2, page: 1 });
      const page2 = await list(apiKey, { limit: 2, page: 2 });
      const page3 = await list(apiKey, { limit: 2, page: 3 });
      for (const p of [page1, page2, page3]) assert.equal(p.status, 200, p.text);
      assert.deepEqual(page1.body.pagination, { page: 1, limit: 2, total_items: 3, total_pages: 2 });
      assert.deepEqual(page2.body.pagination, { page: 2, limit: 2, total_items: 3, total_pages: 2 });
      assert.deepEqual(page3.body.pagination, { page: 3, limit: 2, total_items: 3, total_pages: 2 });
      assert.equal(page1.body.data.length, 2);
      assert.equal(page2.body.data.length, 1, 'the last page holds the rest');
      assert.deepEqual(page3.body.data, [], 'a page beyond the end is empty');
      const seen = [...page1.body.data, ...page2.body.data].map((s: any) => s.bn_session_id);
      assert.deepEqual([...seen].sort(), [...ids].sort(), 'the pages hold every session once');
    });

    it('lists only the own account', async () => {
      const other = await createTestAccount();
      const all = await list(other.api_key);
      assert.equal(all.status, 200);
      assert.deepEqual(all.body.data, []);
      assert.equal(all.body.pagination.total_items, 0);
      assert.equal(all.body.pagination.total_pages, 0);
      const byId = await list(other.api_key, { notarization_id: shared });
      assert.deepEqual(byId.body.data, [], "another account's notarization_id finds nothing");
    });

    it('limit 100 is allowed; limit > 100, limit 0 and page 0 are 400', async () => {
      assert.equal((await list(apiKey, { limit: 100 })).status, 200);
      for (const params of [{ limit: 101 }, { limit: 0 }, { page: 0 }, { limit: 'many' }] as Array<
        Record<string, string | number>
      >) {
        const res = await list(apiKey, params);
        assert.equal(
          res.status,
          400,
          `${JSON.stringify(params)} — expected 400, got ${res.status} ${res.text}`,
        );
        assert.equal(res.body.response, 'Fail');
      }
    });
  });
});
