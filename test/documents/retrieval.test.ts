import type { Config } from '../../src/config';
import { startSecondApp } from '../support/secondApp';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createTestAccount } from '../support/accounts';
import { b64, pdfBytes } from '../support/documents';
import { testEnvironment } from '../support/environment';
import { request } from '../support/http';
import { action, sessionBody, tokenOf, waitForSession } from '../support/sessions';
import {
  assertPass,
  completedSession,
  download,
  ISO_DATETIME_RE,
  localUrl,
  notaryAccount,
  query,
  readySession,
  SESSIONS,
  sha256,
  signedDocuments,
  UUID_RE,
  type NotaryAccount,
} from './helpers';
import { letTimePass } from '../support/eventually';

const REFUSED = { response: 'Fail', response_message: 'This download link is invalid or has expired' };

const secondApi = (overrides: Partial<Config>) => startSecondApp(overrides);

function signedIdOf(downloadUrl: string): string {
  const match = /\/signed_documents\/([^/]+)\/download$/.exec(new URL(downloadUrl).pathname);
  assert.ok(match, `a download path: ${downloadUrl}`);
  return decodeURIComponent(match[1]);
}

/** The same URL with its query changed by `edit`. */
function withQuery(downloadUrl: string, edit: (params: URLSearchParams) => void): string {
  const url = new URL(downloadUrl);
  edit(url.searchParams);
  return url.toString();
}

async function downloadsOf(signedId: string): Promise<number> {
  const rows = await query<{ n: number }>(
    'SELECT count(*)::int AS n FROM document_downloads WHERE signed_document_id = $1',
    [signedId],
  );
  return rows[0].n;
}

describe('retrieving signed documents: GET /sessions/{id}/documents and download URLs', function () {
  this.timeout(120_000);

  let notary: NotaryAccount;
  let sessionId: string;
  let notarizationId: string;
  let listedAt: number;
  let listed: any;

  before(async function () {
    this.timeout(180_000);
    notary = await notaryAccount();
    const body = await sessionBody({
      session_notary_email: notary.notaryEmail,
      session_documents: [
        { name: 'deed.pdf', base64Doc: b64(await pdfBytes(2, undefined, `Deed ${crypto.randomUUID()}`)) },
        { name: 'note.txt', base64Doc: b64(Buffer.from(`Note ${crypto.randomUUID()}\n`)) },
      ],
    });
    notarizationId = body.notarization_id;
    sessionId = (await completedSession(notary.apiKey, body)).id;
    listedAt = Date.now();
    const res = await signedDocuments(notary.apiKey, sessionId);
    assertPass(res, 'signed documents');
    listed = res.body;
  });

  describe('availability', () => {
    it('is 409 before completion (ready, then in_progress), with a message saying so', async () => {
      const created = await readySession(
        notary.apiKey,
        await sessionBody({ session_notary_email: notary.notaryEmail }),
      );
      const id = created.bn_session_id;
      const ready = await signedDocuments(notary.apiKey, id);
      assert.equal(ready.status, 409, ready.text);
      assert.equal(ready.body.response, 'Fail');
      assert.match(ready.body.response_message, /complet/i, ready.text);

      const joined = await request(`/sign/${tokenOf(created.bn_signing_url)}/join`, {
        method: 'POST',
        headers: { accept: 'application/json' },
      });
      assert.equal(joined.status, 200, joined.text);
      assert.equal((await action(notary.apiKey, id, 'start')).status, 200);
      await waitForSession(notary.apiKey, id, (s) => s.status === 'in_progress');
      const inProgress = await signedDocuments(notary.apiKey, id);
      assert.equal(inProgress.status, 409, inProgress.text);
      assert.match(inProgress.body.response_message, /complet/i, inProgress.text);
    });

    it('held documents (notary_manual) are 409 until release_documents, then 200', async () => {
      const { id } = await completedSession(
        notary.apiKey,
        await sessionBody({
          session_notary_email: notary.notaryEmail,
          final_documents_delivery_mode: 'notary_manual',
        }),
        'held',
      );
      const held = await signedDocuments(notary.apiKey, id);
      assert.equal(held.status, 409, held.text);
      assert.equal(held.body.response, 'Fail');
      assert.match(held.body.response_message, /held|releas/i, held.text);
      // Still held a moment later: nothing releases them but the notary.
      await letTimePass(500);
      assert.equal((await signedDocuments(notary.apiKey, id)).status, 409);

      const released = await action(notary.apiKey, id, 'release_documents');
      assert.equal(released.status, 200, released.text);
      await waitForSession(notary.apiKey, id, (s) => s.documents_status === 'released');
      const res = await signedDocuments(notary.apiKey, id);
      assertPass(res, 'after release');
      assert.equal(res.body.documents_status, 'released');
      assert.equal(res.body.documents.length, 1);
      const got = await download(res.body.documents[0].download_url);
      assert.equal(got.status, 200);
      assert.equal(sha256(got.bytes), res.body.documents[0].sha256);
    });

    it('needs the API key (401 without it)', async () => {
      const res = await request(`${SESSIONS}/${sessionId}/documents`);
      assert.equal(res.status, 401, res.text);
    });

    it("is 404 'Session not found' for another account's session, an unknown id and a malformed id", async () => {
      const other = await createTestAccount();
      for (const id of [sessionId, crypto.randomUUID(), 'not-a-uuid']) {
        const res = await signedDocuments(other.api_key, id);
        assert.equal(res.status, 404, `${id}: ${res.text}`);
        assert.deepEqual(res.body, { response: 'Fail', response_message: 'Session not found' });
      }
    });
  });

  describe('the listing', () => {
    it('has exactly the fields of the contract', async () => {
      assert.deepEqual(Object.keys(listed).sort(), [
        'bn_session_id',
        'documents',
        'documents_status',
        'notarization_id',
        'response',
      ]);
      assert.equal(listed.response, 'Pass');
      assert.equal(listed.bn_session_id, sessionId);
      assert.equal(listed.notarization_id, notarizationId);
      assert.equal(listed.documents_status, 'released');
      assert.equal(listed.documents.length, 2);
      for (const doc of listed.documents) {
        assert.deepEqual(Object.keys(doc).sort(), [
          'content_type',
          'document_id',
          'download_url',
          'expires_at',
          'name',
          'sha256',
          'size_bytes',
        ]);
      }
    });

    it('lists each document with its id, PDF name, type, size and sha256 of the signed file', async () => {
      const rows = await query<{ id: string; sha256: string; size_bytes: number }>(
        `SELECT d.id, s.sha256, s.size_bytes FROM documents d JOIN signed_documents s ON s.document_id = d.id
          WHERE d.session_id = $1 ORDER BY d.position`,
        [sessionId],
      );
      assert.deepEqual(
        listed.documents.map((d: any) => [d.document_id, d.name, d.content_type, d.size_bytes, d.sha256]),
        [
          [rows[0].id, 'deed.pdf', 'application/pdf', rows[0].size_bytes, rows[0].sha256],
          [rows[1].id, 'note.pdf', 'application/pdf', rows[1].size_bytes, rows[1].sha256],
        ],
      );
      for (const doc of listed.documents) {
        assert.match(doc.document_id, UUID_RE);
        assert.match(doc.sha256, /^[0-9a-f]{64}$/);
      }
    });

    it('gives absolute download URLs on PUBLIC_BASE_URL, valid 15 minutes by default', async () => {
      assert.equal(testEnvironment().config.downloadUrlTtlSeconds, 15 * 60, 'the default TTL');
      for (const doc of listed.documents) {
        const url = new URL(doc.download_url);
        assert.equal(url.origin, 'https://notary.test', doc.download_url);
        assert.ok(url.searchParams.get('signature'), 'the URL is signed');
        assert.match(doc.expires_at, ISO_DATETIME_RE);
        const ttl = (Date.parse(doc.expires_at) - listedAt) / 1000;
        assert.ok(ttl > 15 * 60 - 30 && ttl <= 15 * 60 + 1, `expires in ${ttl} s, not 15 minutes`);
        assert.equal(Number(url.searchParams.get('expires')) * 1000, Date.parse(doc.expires_at));
      }
    });
  });

  describe('downloading', () => {
    it('works without any Authorization header and serves the PDF as an attachment named .pdf', async () => {
      for (const doc of listed.documents) {
        const res = await fetch(localUrl(doc.download_url));
        const bytes = Buffer.from(await res.arrayBuffer());
        assert.equal(res.status, 200, `${doc.name}: ${bytes.toString('utf8', 0, 300)}`);
        assert.match(res.headers.get('content-type') ?? '', /^application\/pdf/);
        const disposition = res.headers.get('content-disposition') ?? '';
        assert.match(disposition, /^attachment/i, disposition);
        assert.ok(disposition.includes(doc.name), `Content-Disposition ${disposition} names ${doc.name}`);
        assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
        assert.equal(sha256(bytes), doc.sha256, `${doc.name}: the bytes are the listed sha256`);
        assert.equal(bytes.length, doc.size_bytes, `${doc.name}: the listed size`);
      }
    });

    it('records each download in document_downloads', async () => {
      const doc = listed.documents[0];
      const signedId = signedIdOf(doc.download_url);
      const before = await downloadsOf(signedId);
      assert.equal((await download(doc.download_url)).status, 200);
      assert.equal((await download(doc.download_url)).status, 200);
      assert.equal(await downloadsOf(signedId), before + 2);
      const rows = await query<{ downloaded_at: Date }>(
        'SELECT downloaded_at FROM document_downloads WHERE signed_document_id = $1 ORDER BY downloaded_at DESC LIMIT 1',
        [signedId],
      );
      assert.ok(Date.now() - new Date(rows[0].downloaded_at).getTime() < 60_000, 'recorded now');
      const signed = await query<{ document_id: string }>(
        'SELECT document_id FROM signed_documents WHERE id = $1',
        [signedId],
      );
      assert.equal(signed[0].document_id, doc.document_id, 'the URL names the signed form of the document');
    });

    it('refuses altered or incomplete links with 403, and records no download', async () => {
      const [first, second] = listed.documents;
      const signedId = signedIdOf(first.download_url);
      const before = await downloadsOf(signedId);
      const signature = new URL(first.download_url).searchParams.get('signature')!;
      const flipped = (signature[5] === 'A' ? 'B' : 'A') + '';
      const cases: Record<string, string> = {
        'altered signature': withQuery(first.download_url, (p) =>
          p.set('signature', signature.slice(0, 5) + flipped + signature.slice(6)),
        ),
        'truncated signature': withQuery(first.download_url, (p) =>
          p.set('signature', signature.slice(0, -1)),
        ),
        'missing signature': withQuery(first.download_url, (p) => p.delete('signature')),
        'empty signature': withQuery(first.download_url, (p) => p.set('signature', '')),
        'altered expires (later)': withQuery(first.download_url, (p) =>
          p.set('expires', String(Number(p.get('expires')) + 3600)),
        ),
        'altered expires (earlier, still future)': withQuery(first.download_url, (p) =>
          p.set('expires', String(Number(p.get('expires')) - 1)),
        ),
        'missing expires': withQuery(first.download_url, (p) => p.delete('expires')),
        'altered id (the other document, this signature)': first.download_url.replace(
          encodeURIComponent(signedId),
          encodeURIComponent(signedIdOf(second.download_url)),
        ),
        'altered id (unknown uuid)': first.download_url.replace(
          encodeURIComponent(signedId),
          crypto.randomUUID(),
        ),
        "another document's signature": withQuery(first.download_url, (p) =>
          p.set('signature', new URL(second.download_url).searchParams.get('signature')!),
        ),
      };
      for (const [what, url] of Object.entries(cases)) {
        assert.notEqual(url, first.download_url, `${what}: the URL is changed`);
        const res = await fetch(localUrl(url));
        const text = await res.text();
        assert.equal(res.status, 403, `${what}: ${res.status} ${text.slice(0, 300)}`);
        assert.deepEqual(JSON.parse(text), REFUSED, what);
        assert.doesNotMatch(res.headers.get('content-type') ?? '', /pdf/, what);
      }
      assert.equal(await downloadsOf(signedId), before, 'refused links record no download');
      // The genuine link still works.
      assert.equal((await download(first.download_url)).status, 200);
    });

    it('refuses an expired link with 403 (DOWNLOAD_URL_TTL_SECONDS = 1)', async () => {
      const shortLived = await secondApi({ downloadUrlTtlSeconds: 1 });
      try {
        const requestedAt = Date.now();
        const res = await signedDocuments(notary.apiKey, sessionId, shortLived.url);
        assert.equal(res.status, 200, res.text);
        const doc = res.body.documents[0];
        const ttl = Date.parse(doc.expires_at) - requestedAt;
        assert.ok(ttl <= 2_000 && ttl > 0, `expires ${ttl} ms after the listing, not about 1 s`);
        const signedId = signedIdOf(doc.download_url);
        const before = await downloadsOf(signedId);
        await letTimePass(1_500);
        for (const base of [shortLived.url, testEnvironment().apiUrl]) {
          const url = new URL(doc.download_url);
          const expired = await fetch(`${base}${url.pathname}${url.search}`);
          const text = await expired.text();
          assert.equal(expired.status, 403, `${base}: ${expired.status} ${text.slice(0, 300)}`);
          assert.deepEqual(JSON.parse(text), REFUSED);
        }
        assert.equal(await downloadsOf(signedId), before);
      } finally {
        await shortLived.close();
      }
    });
  });
});
