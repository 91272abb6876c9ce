import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { b64, pdfBytes } from '../support/documents';
import { sessionBody, signer } from '../support/sessions';
import { MAX_INVITED_WITNESSES, MAX_SIGNERS } from '../../core/vocabulary';
import {
  completedSession,
  downloadAll,
  notaryAccount,
  pageCount,
  pdftotext,
  removeTempFiles,
  sha256,
  squash,
  wordBoxes,
  runTool,
  tempFile,
} from './helpers';

describe('the certificate fits any session the API accepts (issue 10)', function () {
  this.timeout(180_000);
  after(() => removeTempFiles());

  it(`${MAX_SIGNERS} signers and ${MAX_INVITED_WITNESSES} witnesses with the longest names: every line on a page, nothing under the seal`, async () => {
    const notary = await notaryAccount();
    const tag = crypto
      .randomUUID()
      .replace(/[^a-z]/g, '')
      .slice(0, 6);
    const longest = (i: number, role: string) => ({
      first: `${role}${i}${tag} ${'Maximiliana '.repeat(7)}`.slice(0, 100).trim(),
      last: `Vandenberghe-Oyelaran${i}${tag}`.padEnd(50, 'x').slice(0, 50),
    });
    const signers = Array.from({ length: MAX_SIGNERS }, (_, i) => longest(i, 'Signer'));
    const witnesses = Array.from({ length: MAX_INVITED_WITNESSES }, (_, i) => longest(i, 'Witness'));
    const original = await pdfBytes(1, undefined, `Contract ${tag}`);
    const body = await sessionBody({
      session_notary_email: notary.notaryEmail,
      all_signers: signers.map((n, i) =>
        signer(i, { first_name: n.first, last_name: n.last, authentication_type: 'kba' }),
      ),
      witnesses: {
        invited_witness_details: witnesses.map((n, i) => ({
          email: `witness${i}-${tag}@example.com`,
          firstname: n.first,
          lastname: n.last,
        })),
      },
      session_documents: [{ name: 'contract.pdf', base64Doc: b64(original) }],
    });
    const done = await completedSession(notary.apiKey, body);
    const [file] = (await downloadAll(notary.apiKey, done.id)).files;

    const pages = await pageCount(file.bytes);
    // The signers' signature pages come first (issue 69), then the certificate.
    let first = 2;
    while (!squash(await pdftotext(file.bytes, first, first)).includes('CERTIFICATE OF NOTARIAL ACT'))
      first++;
    // A name longer than its line is broken where the line ends.
    const raw = await runTool('pdftotext', [
      '-raw',
      '-f',
      '2',
      '-l',
      `${first - 1}`,
      tempFile(file.bytes),
      '-',
    ]);
    const signaturePages = raw.stdout.replace(/\s+/g, '');
    assert.match(signaturePages, /SIGNATUREPAGE1OF\d/);
    for (const n of signers)
      assert.ok(
        signaturePages.includes(`${n.first}${n.last}`.replace(/\s+/g, '')),
        `${n.last} on a signature page: ${signaturePages.slice(0, 600)}`,
      );
    const certificatePages = pages - first + 1;
    assert.ok(certificatePages >= 2, `the certificate continues on more pages: ${certificatePages} pages`);
    const certificate = squash(await pdftotext(file.bytes, first, pages));
    for (const expected of [
      ...signers.map((n) => `${n.first} ${n.last}`),
      ...witnesses.map((n) => `${n.first} ${n.last}`),
      `Commission number: ${notary.commissionNumber}`,
      sha256(original),
      'This document is digitally signed; any change made after signing invalidates the signature.',
      `Certificate page ${certificatePages} of ${certificatePages}`,
      'CERTIFICATE OF NOTARIAL ACT (continued)',
    ]) {
      assert.ok(certificate.includes(expected), `the certificate should contain ${JSON.stringify(expected)}`);
    }
    // The seal is drawn at x 60–210 and 60–210 pt from the bottom of the last page: no word may be there.
    const underSeal = (await wordBoxes(file.bytes, pages)).filter(
      (w) => w.xMin < 210 && w.yMax > 792 - 210 && w.yMin < 792 - 60,
    );
    assert.deepEqual(underSeal, []);
    // No word runs off a page's right edge.
    for (let page = first; page <= pages; page++) {
      const overflowing = (await wordBoxes(file.bytes, page)).filter((w) => w.xMax > 612 - 50);
      assert.deepEqual(overflowing, [], `page ${page}`);
    }
  });
});
