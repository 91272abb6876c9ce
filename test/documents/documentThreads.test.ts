import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestAccount } from '../support/accounts';
import { b64, docxBytes, libreOfficeConversions, pdfBytes } from '../support/documents';
import { eventually } from '../support/eventually';
import { testEnvironment } from '../support/environment';
import { startSecondApp } from '../support/secondApp';
import { sessionBody } from '../support/sessions';

/**
 * A LibreOffice that holds each conversion until `release` exists, then writes a one-page PDF: conversions
 * end when the test says, never on their own while it looks.
 */
async function heldLibreOffice(dir: string): Promise<{ soffice: string; release: () => void }> {
  const soffice = path.join(dir, 'soffice');
  fs.writeFileSync(path.join(dir, 'out.pdf'), await pdfBytes(1));
  fs.writeFileSync(
    soffice,
    '#!/bin/sh\n' +
      `while [ ! -f ${dir}/release ]; do sleep 0.05; done\n` +
      'while [ "$1" != "--outdir" ]; do shift; done\n' +
      `cp ${dir}/out.pdf "$2/document.pdf"\n`,
    { mode: 0o755 },
  );
  return { soffice, release: () => fs.writeFileSync(path.join(dir, 'release'), '') };
}

describe('document threads with the default DOCUMENT_THREADS and DOCUMENT_CONVERSION_THREADS', function () {
  this.timeout(60_000);

  it('DOCX in LibreOffice, as many as there are document threads, leave a PDF sent meanwhile nothing to wait for', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'held-soffice-'));
    const libreOffice = await heldLibreOffice(dir);
    const app = await startSecondApp({ libreofficePath: libreOffice.soffice });
    try {
      const { documentWork } = testEnvironment().config;
      const apiKey = (await createTestAccount()).api_key;
      const create = (body: Record<string, unknown>, signal?: AbortSignal) =>
        fetch(`${app.url}/api/integrationsv2/sessions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal,
        });
      const docx = await sessionBody({
        session_documents: [{ name: 'poa.docx', base64Doc: b64(docxBytes()) }],
      });
      const docxCreates = Array.from({ length: documentWork.threads }, () => create(docx));
      const held = Math.min(documentWork.threads, documentWork.conversionThreads);
      await eventually(
        libreOfficeConversions,
        (running) => running.size >= held,
        'LibreOffice holding the DOCX',
        { intervalMs: 20 },
      );
      // With one pool, every thread would be waiting on a held conversion and this create with them.
      const pdfCreate = await create(await sessionBody(), AbortSignal.timeout(15_000)).catch(() => undefined);
      assert.ok(pdfCreate, 'the PDF create waited for the DOCX conversions');
      assert.equal(pdfCreate.status, 200, await pdfCreate.text());
      assert.ok(libreOfficeConversions().size >= held, 'the conversions were still held');
      libreOffice.release();
      for (const res of await Promise.all(docxCreates)) assert.equal(res.status, 200, await res.text());
    } finally {
      libreOffice.release();
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
