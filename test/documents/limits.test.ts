import assert from 'node:assert/strict';
import { PDFDocument } from 'pdf-lib';
import { DOCUMENT_LIMITS } from '../../src/documents/documentLimits';
import { createTestAccount } from '../support/accounts';
import {
  inflatingPdf,
  jpegHeader,
  manyNamesPdf,
  mostCompactFlate,
  pngHeader,
} from '../support/hostileDocuments';
import { b64 } from '../support/documents';
import { createSession, sessionBody } from '../support/sessions';
import { startSecondApp } from '../support/secondApp';

describe('document limits: refused from cheap evidence, naming the field (issue 10)', function () {
  this.timeout(60_000);
  let apiKey: string;
  before(async () => {
    apiKey = (await createTestAccount()).api_key;
  });

  async function refused(name: string, bytes: Buffer, message: RegExp) {
    const res = await createSession(
      apiKey,
      await sessionBody({ session_documents: [{ name, base64Doc: b64(bytes) }] }),
    );
    assert.equal(res.status, 403, res.text);
    assert.equal(res.body.response, 'Fail');
    assert.equal(res.body.bn_session_id, '', 'the 7.1 body');
    assert.match(res.body.response_message, message);
  }

  it(`an image over ${DOCUMENT_LIMITS.imageMegapixels} megapixels (PNG or JPEG) is refused from its header`, async () => {
    await refused(
      'scan.png',
      pngHeader(10_000, 10_000),
      /^session_documents\[0\]\.base64Doc: the image is 10000×10000 pixels; at most 50 megapixels/,
    );
    await refused('scan.jpg', jpegHeader(60_000, 60_000), /the image is 60000×60000 pixels/);
  });

  it(`text that makes more than ${DOCUMENT_LIMITS.textPages} pages is refused before it is laid out`, async () => {
    await refused(
      'notes.txt',
      Buffer.alloc(1024 * 1024, '\n'),
      /^session_documents\[0\]\.base64Doc: the text makes more than 500 pages$/,
    );
  });

  it('a PDF that inflates past the limit is refused before it is parsed', async () => {
    const bomb = inflatingPdf(DOCUMENT_LIMITS.pdfInflatedBytes + 1024 * 1024);
    assert.ok(bomb.length < 1024 * 1024, `a small file: ${bomb.length} bytes`);
    await refused(
      'bomb.pdf',
      bomb,
      /^session_documents\[0\]\.base64Doc: the PDF inflates to more than 128 MB$/,
    );
  });

  it('a PDF as small as Flate allows that inflates just past the limit is refused: files too small to pass it are the only ones not inflated', async () => {
    const limit = DOCUMENT_LIMITS.pdfInflatedBytes;
    await refused(
      'bomb.pdf',
      inflatingPdf(limit + 1, mostCompactFlate(limit + 1)),
      /^session_documents\[0\]\.base64Doc: the PDF inflates to more than 128 MB$/,
    );
  });

  it(`a PDF of more than ${DOCUMENT_LIMITS.pdfPages} pages is refused`, async () => {
    const pdf = await PDFDocument.create();
    for (let i = 0; i <= DOCUMENT_LIMITS.pdfPages; i++) pdf.addPage([100, 100]);
    await refused(
      'long.pdf',
      Buffer.from(await pdf.save()),
      /^session_documents\[0\]\.base64Doc: the PDF has 2001 pages; at most 2000/,
    );
  });

  it('what one PDF leaves behind in a document thread does not refuse the next: name-heavy PDFs are all accepted', async () => {
    // pdf-lib keeps every name it has read for the life of the thread (~15 MB for each of these); a 64 MB
    // thread that kept serving them would refuse the fourth or fifth as over its memory limit.
    const app = await startSecondApp({
      documentWork: { threads: 1, conversionThreads: 1, memoryMb: 64, timeoutMs: 30_000 },
    });
    try {
      for (let i = 0; i < 8; i++) {
        const res = await fetch(`${app.url}/api/integrationsv2/sessions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
          body: JSON.stringify(
            await sessionBody({
              session_documents: [{ name: 'names.pdf', base64Doc: b64(manyNamesPdf(40_000)) }],
            }),
          ),
        });
        assert.equal(res.status, 200, `document ${i + 1}: ${await res.text()}`);
      }
    } finally {
      await app.close();
    }
  });

  it('a document that outlasts DOCUMENT_TIMEOUT in the worker pool answers 503 with Retry-After: safe to retry', async () => {
    const app = await startSecondApp({
      documentWork: { threads: 1, conversionThreads: 1, memoryMb: 256, timeoutMs: 1 },
    });
    try {
      const res = await fetch(`${app.url}/api/integrationsv2/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
        body: JSON.stringify(
          await sessionBody({
            session_documents: [{ name: 'notes.txt', base64Doc: b64(Buffer.from('line\n'.repeat(10_000))) }],
          }),
        ),
      });
      const body = (await res.json()) as { response_message: string };
      assert.equal(res.status, 503, JSON.stringify(body));
      assert.match(body.response_message, /^Document processing timed out/);
      assert.equal(res.headers.get('retry-after'), '5');
    } finally {
      await app.close();
    }
  });
});
