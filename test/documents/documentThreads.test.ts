import assert from 'node:assert/strict';
import fs from 'node:fs';
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

describe('document threads with the default DOCUMENT_THREADS', function () {
  this.timeout(120_000);

  it('a PDF sent while a DOCX is in LibreOffice is checked beside it: its create answers first', async () => {
    const apiKey = (await createTestAccount()).api_key;
    const answered: string[] = [];
    const docxCreate = createSession(
      apiKey,
      await sessionBody({ session_documents: [{ name: 'poa.docx', base64Doc: b64(docxBytes()) }] }),
    ).then((res) => {
      answered.push('docx');
      return res;
    });
    await eventually(libreOfficeConverting, Boolean, 'LibreOffice converting the DOCX', { intervalMs: 20 });
    const pdfCreate = await createSession(apiKey, await sessionBody());
    answered.push('pdf');
    assert.equal(pdfCreate.status, 200, pdfCreate.text);
    const docx = await docxCreate;
    assert.equal(docx.status, 200, docx.text);
    assert.deepEqual(answered, ['pdf', 'docx'], 'the PDF create did not wait for the conversion');
  });
});
