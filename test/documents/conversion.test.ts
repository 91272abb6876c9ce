import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { readBlob } from '../../src/documents/blobStore';
import { b64, docxBytes, JPEG_1x1, pdfBytes, PNG_1x1 } from '../support/documents';
import { testEnvironment } from '../support/environment';
import { request, type ApiResponse } from '../support/http';
import { createSession, sessionBody } from '../support/sessions';
import {
  annotation,
  assertValidSignature,
  completedSession,
  downloadAll,
  imagePages,
  notaryAccount,
  pageCount,
  pdftotext,
  query,
  readySession,
  removeTempFiles,
  SESSIONS,
  sha256,
  squash,
  type NotaryAccount,
} from './helpers';

/** A create/add failure in the 7.1 shape: 403, Fail, a message naming `field`. */
function assertRefused(res: ApiResponse, field: RegExp, what: string) {
  const context = `${what}: ${res.status} ${res.text.slice(0, 500)}`;
  assert.equal(res.status, 403, context);
  assert.equal(res.body.response, 'Fail', context);
  assert.match(res.body.response_message, field, context);
}

/** A ZIP that sniffs as a DOCX ([Content_Types].xml and word/ parts) whose document part is not XML. */
const garbageDocx = () => docxBytes(new Uint8Array(crypto.randomBytes(4096)));

/**
 * The 1×1 JPEG with a comment segment of `padding` bytes after SOI: a valid JPEG large enough that
 * Node does not allocate its decoded bytes from the shared Buffer pool.
 */
function paddedJpeg(padding = 6000): Buffer {
  const length = Buffer.alloc(2);
  length.writeUInt16BE(padding + 2);
  return Buffer.concat([
    JPEG_1x1.subarray(0, 2),
    Buffer.from([0xff, 0xfe]),
    length,
    Buffer.alloc(padding, 0x41),
    JPEG_1x1.subarray(2),
  ]);
}

describe('documents converted to PDF at upload (PNG, JPG, TXT, DOCX)', function () {
  this.timeout(180_000);

  let notary: NotaryAccount;
  after(() => removeTempFiles());

  before(async () => {
    notary = await notaryAccount();
  });

  describe('a session with one document of each format', () => {
    const textLine = `Affidavit ${crypto.randomUUID()}`;
    const text = Buffer.from(`${textLine}\nSworn before a notary public.\n`);
    const docx = docxBytes();
    const jpeg = paddedJpeg();
    let sessionId: string;
    let files: Array<{ listed: any; bytes: Buffer }>;

    before(async function () {
      this.timeout(240_000);
      const body = await sessionBody({
        session_notary_email: notary.notaryEmail,
        session_documents: [
          { name: 'photo.png', base64Doc: b64(PNG_1x1) },
          { name: 'scan.JPG', base64Doc: b64(jpeg) },
          { name: 'note.txt', base64Doc: b64(text), annotations: [annotation({ pageNum: 1 })] },
          { name: 'poa.docx', base64Doc: b64(docx), annotations: [annotation({ pageNum: 1 })] },
        ],
      });
      const done = await completedSession(notary.apiKey, body);
      sessionId = done.id;
      files = (await downloadAll(notary.apiKey, sessionId)).files;
    });

    it('are converted at upload: the upload is kept as it is, with a PDF form stored beside it', async () => {
      const rows = await query<{
        name: string;
        content_type: string;
        sha256: string;
        blob_id: string;
        pdf_blob_id: string | null;
        page_count: number | null;
      }>(
        'SELECT name, content_type, sha256, blob_id, pdf_blob_id, page_count FROM documents WHERE session_id = $1 ORDER BY position',
        [sessionId],
      );
      assert.deepEqual(
        rows.map((r) => [r.name, r.content_type, r.sha256]),
        [
          ['photo.png', 'image/png', sha256(PNG_1x1)],
          ['scan.JPG', 'image/jpeg', sha256(jpeg)],
          ['note.txt', 'text/plain', sha256(text)],
          [
            'poa.docx',
            'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
            sha256(docx),
          ],
        ],
      );
      for (const row of rows) {
        assert.ok(row.pdf_blob_id, `${row.name}: a PDF form is stored at upload`);
        assert.notEqual(row.pdf_blob_id, row.blob_id, `${row.name}: the PDF form is not the upload`);
        const pdf = await readBlob(testEnvironment().runtime.sequelize, row.pdf_blob_id);
        assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-', `${row.name}: stored PDF form`);
        assert.equal(row.page_count, (await PDFDocument.load(pdf)).getPageCount(), row.name);
      }
    });

    it('come out as signed PDFs: content_type application/pdf, names ending .pdf, pdfsig valid', async () => {
      assert.deepEqual(
        files.map((f) => [f.listed.name, f.listed.content_type]),
        [
          ['photo.pdf', 'application/pdf'],
          ['scan.pdf', 'application/pdf'],
          ['note.pdf', 'application/pdf'],
          ['poa.pdf', 'application/pdf'],
        ],
      );
      for (const file of files) {
        assert.equal(file.bytes.subarray(0, 5).toString('latin1'), '%PDF-', file.listed.name);
        await assertValidSignature(file.bytes, file.listed.name);
        assert.equal(
          await pageCount(file.bytes),
          3,
          `${file.listed.name}: one page, the signature page (no places named) and the certificate`,
        );
      }
    });

    it('images become a page that shows the image', async () => {
      for (const file of files.slice(0, 2)) {
        const pages = await imagePages(file.bytes);
        // Page 1 holds the converted image alone: the seal goes on the signature page (issue 69).
        assert.equal(
          pages.filter((p) => p === 1).length,
          1,
          `${file.listed.name}: the image on page 1; images on ${pages.join(',')}`,
        );
      }
    });

    it("the TXT's text appears in the PDF", async () => {
      const out = squash(await pdftotext(files[2].bytes, 1, 1));
      assert.ok(out.includes(textLine), `note.pdf page 1:\n${out}`);
      assert.ok(out.includes('Sworn before a notary public.'), `note.pdf page 1:\n${out}`);
    });

    it("the DOCX's text appears in the PDF", async () => {
      const out = squash(await pdftotext(files[3].bytes, 1, 1));
      assert.ok(out.includes('Power of attorney'), `poa.pdf page 1:\n${out}`);
    });

    it('the certificate page states the sha256 of the upload itself, not of its PDF form', async () => {
      for (const [file, original] of [
        [files[0], PNG_1x1],
        [files[2], text],
        [files[3], docx],
      ] as const) {
        const certificate = squash(await pdftotext(file.bytes, 3, 3));
        assert.ok(certificate.includes('CERTIFICATE OF NOTARIAL ACT'), certificate);
        assert.ok(
          certificate.includes(sha256(original)),
          `${file.listed.name}: certificate should state ${sha256(original)}:\n${certificate}`,
        );
      }
    });
  });

  it('a small JPEG (the 1×1 fixture, under 4 KB) is converted like any other', async () => {
    const res = await createSession(
      notary.apiKey,
      await sessionBody({
        session_notary_email: notary.notaryEmail,
        session_documents: [{ name: 'tiny.jpg', base64Doc: b64(JPEG_1x1) }],
      }),
    );
    assert.equal(res.status, 200, `tiny JPEG upload: ${res.status} ${res.text.slice(0, 300)}`);
    const rows = await query<{ pdf_blob_id: string; page_count: number }>(
      'SELECT pdf_blob_id, page_count FROM documents WHERE session_id = $1',
      [res.body.bn_session_id],
    );
    assert.equal(rows[0].page_count, 1);
    const pdf = await readBlob(testEnvironment().runtime.sequelize, rows[0].pdf_blob_id);
    assert.equal((await PDFDocument.load(pdf)).getPageCount(), 1);
  });

  describe('annotations are checked against the converted page count', () => {
    it('pageNum 2 on a one-page TXT is refused with 403 naming the field', async () => {
      const res = await createSession(
        notary.apiKey,
        await sessionBody({
          session_notary_email: notary.notaryEmail,
          session_documents: [
            {
              name: 'note.txt',
              base64Doc: b64(Buffer.from('One short line.\n')),
              annotations: [annotation({ pageNum: 1 }), annotation({ pageNum: 2 })],
            },
          ],
        }),
      );
      assertRefused(res, /session_documents\[0\]\.annotations\[1\]\.pageNum/, 'TXT pageNum 2');
    });

    it('pageNum 2 on a one-page DOCX is refused with 403 naming the field', async () => {
      const res = await createSession(
        notary.apiKey,
        await sessionBody({
          session_notary_email: notary.notaryEmail,
          session_documents: [
            { name: 'deed.pdf', base64Doc: b64(await pdfBytes(1)) },
            {
              name: 'poa.docx',
              base64Doc: b64(docxBytes()),
              annotations: [annotation({ pageNum: 2 })],
            },
          ],
        }),
      );
      assertRefused(res, /session_documents\[1\]\.annotations\[0\]\.pageNum/, 'DOCX pageNum 2');
    });

    it('a TXT long enough for two pages accepts pageNum 2 and refuses pageNum 3', async () => {
      const long = Buffer.from(
        Array.from({ length: 60 }, (_, i) => `Line ${i + 1} of the affidavit.`).join('\n'),
      );
      const doc = (pageNum: number) => [
        { name: 'long.txt', base64Doc: b64(long), annotations: [annotation({ pageNum })] },
      ];
      const ok = await createSession(
        notary.apiKey,
        await sessionBody({ session_notary_email: notary.notaryEmail, session_documents: doc(2) }),
      );
      assert.equal(ok.status, 200, `pageNum 2 of 2: ${ok.text}`);
      const rows = await query<{ page_count: number }>(
        'SELECT page_count FROM documents WHERE session_id = $1',
        [ok.body.bn_session_id],
      );
      assert.deepEqual(rows, [{ page_count: 2 }]);
      const refused = await createSession(
        notary.apiKey,
        await sessionBody({ session_notary_email: notary.notaryEmail, session_documents: doc(3) }),
      );
      assertRefused(refused, /session_documents\[0\]\.annotations\[0\]\.pageNum/, 'pageNum 3 of 2');
    });

    it('documents added later (POST /sessions/{id}/documents) are checked the same way', async () => {
      const created = await readySession(
        notary.apiKey,
        await sessionBody({ session_notary_email: notary.notaryEmail }),
      );
      const res = await request(`${SESSIONS}/${created.bn_session_id}/documents`, {
        auth: notary.apiKey,
        body: {
          session_documents: [
            {
              name: 'note.txt',
              base64Doc: b64(Buffer.from('A one-page note.\n')),
              annotations: [annotation({ pageNum: 2 })],
            },
          ],
        },
      });
      assertRefused(res, /annotations\[0\]\.pageNum/, 'added TXT pageNum 2');
    });
  });

  describe('a conversion failure is reported at upload, never as a 500', () => {
    async function upload(name: string, bytes: Buffer) {
      return createSession(
        notary.apiKey,
        await sessionBody({
          session_notary_email: notary.notaryEmail,
          session_documents: [{ name, base64Doc: b64(bytes) }],
        }),
      );
    }

    /** 403 naming the document, or 200 only when a real PDF form was made. */
    async function assertRefusedOrConverted(res: ApiResponse, what: string) {
      assert.notEqual(res.status, 500, `${what}: ${res.text.slice(0, 500)}`);
      assert.ok([200, 403].includes(res.status), `${what}: ${res.status} ${res.text.slice(0, 500)}`);
      if (res.status === 403) {
        assert.equal(res.body.response, 'Fail', what);
        return;
      }
      const rows = await query<{ pdf_blob_id: string | null; page_count: number | null }>(
        'SELECT pdf_blob_id, page_count FROM documents WHERE session_id = $1',
        [res.body.bn_session_id],
      );
      assert.ok(rows[0]?.pdf_blob_id, `${what}: accepted without a PDF form`);
      const pdf = await readBlob(testEnvironment().runtime.sequelize, rows[0].pdf_blob_id);
      const loaded = await PDFDocument.load(pdf);
      assert.ok(loaded.getPageCount() >= 1, `${what}: accepted, and converted`);
    }

    it('a DOCX whose word/document.xml is garbage', async () => {
      await assertRefusedOrConverted(await upload('broken.docx', garbageDocx()), 'garbage document.xml');
    });

    it('a truncated DOCX', async () => {
      const docx = docxBytes();
      await assertRefusedOrConverted(
        await upload('truncated.docx', docx.subarray(0, Math.floor(docx.length * 0.6))),
        'truncated DOCX',
      );
    });

    it('a DOCX that cannot be converted is refused with a message naming the document field (contract §2)', async () => {
      const res = await upload('broken.docx', garbageDocx());
      if (res.status === 200) return; // LibreOffice made something of it: nothing to name.
      assertRefused(res, /session_documents\[0\]/, 'unconvertible DOCX');
    });

    it('a PNG whose image data is corrupt is refused with 403', async () => {
      // The PNG signature and the start of IHDR, then garbage: it sniffs as PNG but cannot be decoded.
      const broken = Buffer.concat([PNG_1x1.subarray(0, 24), crypto.randomBytes(64)]);
      const res = await upload('broken.png', broken);
      assertRefused(res, /session_documents\[0\]/, 'corrupt PNG');
    });

    it('a JPEG that stops before its frame header is refused with 403', async () => {
      // SOI and a long comment, then nothing: it sniffs as JPEG but has no image.
      const broken = paddedJpeg().subarray(0, 6100);
      const res = await upload('broken.jpg', broken);
      assertRefused(res, /session_documents\[0\]/, 'truncated JPEG');
    });
  });
});
