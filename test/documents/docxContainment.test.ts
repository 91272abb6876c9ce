import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { strToU8 } from 'fflate';
import { toPdf } from '../../src/documents/convert';
import { DOCX_LIMITS } from '../../src/documents/docxPackage';
import { b64, docxBytes, pdfBytes } from '../support/documents';
import { createTestAccount } from '../support/accounts';
import { linkedImageDocx, listener } from '../support/hostileDocuments';
import { createSession, sessionBody } from '../support/sessions';
import { testEnvironment } from '../support/environment';

const run = promisify(execFile);

describe('DOCX conversion is contained (issue 10)', function () {
  this.timeout(180_000);

  it('a linked picture is never fetched: LibreOffice alone fetches it, the service does not', async () => {
    const local = await listener();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docx-control-'));
    try {
      const docx = linkedImageDocx(`${local.url}/linked.png`);
      // The control: LibreOffice given this file as it is does reach the listener.
      fs.writeFileSync(path.join(dir, 'linked.docx'), docx);
      await run(
        testEnvironment().config.libreofficePath,
        [
          '--headless',
          '--norestore',
          `-env:UserInstallation=file://${dir}/profile`,
          '--convert-to',
          'pdf',
          '--outdir',
          dir,
          path.join(dir, 'linked.docx'),
        ],
        { timeout: 120_000 },
      );
      assert.ok(local.requests.length > 0, 'the fixture makes an unguarded LibreOffice fetch its link');
      local.requests.length = 0;

      const { api_key } = await createTestAccount();
      const created = await createSession(
        api_key,
        await sessionBody({ session_documents: [{ name: 'linked.docx', base64Doc: b64(docx) }] }),
      );
      assert.equal(created.status, 200, created.text);
      assert.deepEqual(local.requests, [], 'the service converted it without a single request');
    } finally {
      local.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("LibreOffice runs without the service's environment and without a network", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docx-probe-'));
    try {
      // Stands in for soffice: reports its environment and network interfaces, then writes the PDF.
      const probe = path.join(dir, 'soffice');
      fs.writeFileSync(path.join(dir, 'out.pdf'), await pdfBytes(1));
      fs.writeFileSync(
        probe,
        '#!/bin/sh\n' +
          `env > ${dir}/env.txt\n` +
          `tail -n +3 /proc/net/dev | cut -d: -f1 > ${dir}/net.txt\n` +
          'while [ "$1" != "--outdir" ]; do shift; done\n' +
          `cp ${dir}/out.pdf "$2/document.pdf"\n`,
        { mode: 0o755 },
      );
      process.env.PROBE_SECRET = 'must-not-reach-libreoffice';
      await toPdf(
        docxBytes(),
        'docx',
        { path: probe, deadline: Date.now() + 60_000 },
        'session_documents[0]',
      );
      const env = fs.readFileSync(path.join(dir, 'env.txt'), 'utf8');
      assert.doesNotMatch(env, /PROBE_SECRET|JWT_SECRET|DATABASE_URL/);
      assert.deepEqual(fs.readFileSync(path.join(dir, 'net.txt'), 'utf8').split(/\s+/).filter(Boolean), [
        'lo',
      ]);
    } finally {
      delete process.env.PROBE_SECRET;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it(`a DOCX over ${DOCX_LIMITS.maxParts} parts or its uncompressed size is refused naming the field`, async () => {
    const { api_key } = await createTestAccount();
    const parts = Object.fromEntries(
      Array.from({ length: DOCX_LIMITS.maxParts }, (_, i) => [`word/media/p${i}.bin`, strToU8('x')]),
    );
    const manyParts = docxBytes(undefined, parts);
    // 200 MB of zeros deflate to about 200 KB: only the ZIP's size fields are read to refuse it.
    const bomb = docxBytes(new Uint8Array(DOCX_LIMITS.maxUncompressedBytes + 1));
    for (const docx of [manyParts, bomb]) {
      const res = await createSession(
        api_key,
        await sessionBody({ session_documents: [{ name: 'big.docx', base64Doc: b64(docx) }] }),
      );
      assert.equal(res.status, 403, res.text);
      assert.match(
        res.body.response_message,
        /^session_documents\[0\]\.base64Doc: a DOCX may hold at most 1000 parts/,
      );
    }
  });
});
