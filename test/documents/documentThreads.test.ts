import assert from 'node:assert/strict';
import { createTestAccount } from '../support/accounts';
import { b64, docxBytes, libreOfficeConversions, longDocx } from '../support/documents';
import { testEnvironment } from '../support/environment';
import { eventually } from '../support/eventually';
import { createSession, sessionBody } from '../support/sessions';

describe('document threads with the default DOCUMENT_THREADS and DOCUMENT_CONVERSION_THREADS', function () {
  this.timeout(120_000);

  it('DOCX in LibreOffice, as many as there are document threads, leave a PDF sent meanwhile nothing to wait for', async () => {
    const { threads, conversionThreads } = testEnvironment().config.documentWork;
    const apiKey = (await createTestAccount()).api_key;
    const converting = Math.min(threads, conversionThreads);
    // The lane's threads are started first, by small DOCX at once: a thread's start (seconds from the
    // TypeScript sources, under load) would otherwise let one long conversion run well ahead of the other.
    const small = await sessionBody({
      session_documents: [{ name: 'note.docx', base64Doc: b64(docxBytes()) }],
    });
    for (const warm of await Promise.all(
      Array.from({ length: converting }, () => createSession(apiKey, small)),
    ))
      assert.equal(warm.status, 200, warm.text);
    const body = await sessionBody({ session_documents: [{ name: 'poa.docx', base64Doc: b64(longDocx()) }] });
    let docxAnswered = 0;
    const docxCreates = Array.from({ length: threads }, () =>
      createSession(apiKey, body).finally(() => (docxAnswered += 1)),
    );
    const seen = await eventually(
      libreOfficeConversions,
      (running) => running.size >= converting,
      'LibreOffice converting the DOCX',
      { intervalMs: 20 },
    );
    const pdfBody = await sessionBody();
    const sent = Date.now();
    const pdfCreate = await createSession(apiKey, pdfBody);
    const tookMs = Date.now() - sent;
    assert.equal(pdfCreate.status, 200, pdfCreate.text);
    // A DOCX create that ended its conversion may still answer after the PDF's (its rows, its workflow):
    // what shows the PDF did not wait is every conversion seen before it still running.
    const running = libreOfficeConversions();
    assert.ok(
      [...seen].every((dir) => running.has(dir)),
      `the PDF create (${tookMs} ms) waited for a DOCX conversion to end: ${seen.size} seen before it, ${[...seen].filter((dir) => running.has(dir)).length} still running after`,
    );
    assert.equal(docxAnswered, 0);
    for (const docx of await Promise.all(docxCreates)) assert.equal(docx.status, 200, docx.text);
  });
});
