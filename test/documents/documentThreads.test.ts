import assert from 'node:assert/strict';
import fs from 'node:fs';
import { strToU8 } from 'fflate';
import { createTestAccount } from '../support/accounts';
import { b64, docxBytes } from '../support/documents';
import { eventually } from '../support/eventually';
import { createSession, sessionBody } from '../support/sessions';

/** Whether a LibreOffice conversion is running on this machine (its command line, from /proc). */
function libreOfficeConverting(): boolean {
  return fs.readdirSync('/proc').some((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0');
      return args.some((a) => a.includes('soffice')) && args.includes('--convert-to');
    } catch {
      return false;
    }
  });
}

/**
 * A DOCX of ~800 pages of a deed's text: LibreOffice takes seconds over it (3.4 s here), well beyond the
 * time a small PDF's create takes, even one that starts the pool's second thread.
 */
function longDocx(): Buffer {
  const paragraph =
    '<w:p><w:r><w:t>The grantor conveys and warrants to the grantee the real property described herein.</w:t></w:r></w:p>';
  return docxBytes(
    strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
        `<w:body>${paragraph.repeat(20_000)}</w:body></w:document>`,
    ),
  );
}

describe('document threads with the default DOCUMENT_THREADS', function () {
  this.timeout(120_000);

  it('a PDF sent while a DOCX is in LibreOffice is checked beside it: its create answers before the conversion ends', async () => {
    const apiKey = (await createTestAccount()).api_key;
    const docxCreate = createSession(
      apiKey,
      await sessionBody({ session_documents: [{ name: 'poa.docx', base64Doc: b64(longDocx()) }] }),
    );
    await eventually(libreOfficeConverting, Boolean, 'LibreOffice converting the DOCX', { intervalMs: 20 });
    const pdfCreate = await createSession(apiKey, await sessionBody());
    assert.equal(pdfCreate.status, 200, pdfCreate.text);
    assert.ok(libreOfficeConverting(), 'the PDF create waited for the DOCX conversion to end');
    const docx = await docxCreate;
    assert.equal(docx.status, 200, docx.text);
  });
});
