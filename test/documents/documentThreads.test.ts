import assert from 'node:assert/strict';
import { createTestAccount } from '../support/accounts';
import { b64, libreOfficeConversions, longDocx } from '../support/documents';
import { testEnvironment } from '../support/environment';
import { eventually } from '../support/eventually';
import { createSession, sessionBody } from '../support/sessions';

describe('document threads with the default DOCUMENT_THREADS and DOCUMENT_CONVERSION_THREADS', function () {
  this.timeout(120_000);

  it('DOCX in LibreOffice, as many as there are document threads, leave a PDF sent meanwhile nothing to wait for', async () => {
    const { threads, conversionThreads } = testEnvironment().config.documentWork;
    const apiKey = (await createTestAccount()).api_key;
    const body = await sessionBody({ session_documents: [{ name: 'poa.docx', base64Doc: b64(longDocx()) }] });
    let docxAnswered = 0;
    const docxCreates = Array.from({ length: threads }, () =>
      createSession(apiKey, body).finally(() => (docxAnswered += 1)),
    );
    const converting = Math.min(threads, conversionThreads);
    await eventually(
      libreOfficeConversions,
      (running) => running >= converting,
      'LibreOffice converting the DOCX',
      { intervalMs: 20 },
    );
    const pdfCreate = await createSession(apiKey, await sessionBody());
    assert.equal(pdfCreate.status, 200, pdfCreate.text);
    // A DOCX create that ended its conversion may still answer after the PDF's (its rows, its workflow):
    // what shows the PDF did not wait is every conversion still running.
    assert.equal(libreOfficeConversions(), converting, 'the PDF create waited for a DOCX conversion to end');
    assert.equal(docxAnswered, 0);
    for (const docx of await Promise.all(docxCreates)) assert.equal(docx.status, 200, docx.text);
  });
});
