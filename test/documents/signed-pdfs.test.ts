import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { b64, pdfBytes } from '../support/documents';
import { sessionBody, signer } from '../support/sessions';
import { notaryAdopts } from '../support/signing';
import { memberToken } from '../team/helpers';
import {
  annotation,
  assertValidSignature,
  completedSession,
  downloadAll,
  imagePages,
  imagesOn,
  notaryAccount,
  pageCount,
  pdfsig,
  pdftotext,
  query,
  removeTempFiles,
  sha256,
  squash,
  type NotaryAccount,
  within,
  wordBoxes,
} from './helpers';

/** The signed byte ranges of the (single) signature: [[start, end), [start, end)]. */
function byteRanges(bytes: Buffer): Array<[number, number]> {
  const match = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(bytes.toString('latin1'));
  assert.ok(match, 'the signed PDF has a /ByteRange');
  const [a, b, c, d] = match.slice(1).map(Number);
  return [
    [a, a + b],
    [c, c + d],
  ];
}

const inRanges = (ranges: Array<[number, number]>, offset: number) =>
  ranges.some(([start, end]) => offset >= start && offset < end);

const HAWAII_OFFSET = 10 * 60 * 60 * 1000;
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** An instant as Hawaii's clocks read it, e.g. `November 25, 2026 at 3:07 PM`. */
function hawaiiTime(iso: string): string {
  const local = new Date(Date.parse(iso) - HAWAII_OFFSET);
  const hour = local.getUTCHours();
  const minutes = String(local.getUTCMinutes()).padStart(2, '0');
  const clock = `${hour % 12 || 12}:${minutes} ${hour < 12 ? 'AM' : 'PM'}`;
  return `${MONTHS[local.getUTCMonth()]} ${local.getUTCDate()}, ${local.getUTCFullYear()} at ${clock}`;
}

/** pdfsig must report the signature broken, and never as valid. */
async function assertBroken(bytes: Buffer, what: string) {
  const result = await pdfsig(bytes);
  const out = result.stdout + result.stderr;
  assert.doesNotMatch(out, /Signature is Valid\./, `${what}: pdfsig still says valid\n${out}`);
  assert.match(out, /Digest Mismatch|Signature is Invalid/i, `${what}: pdfsig says\n${out}`);
}

describe('notarized PDFs: seal, signatures, certificate page, PAdES signature', function () {
  this.timeout(120_000);

  let notary: NotaryAccount;
  let sessionId: string;
  let completedAt: string;
  const signerFirst = 'Grace';
  const signerLast = `Hopper${crypto
    .randomUUID()
    .replace(/[^a-z]/g, '')
    .slice(0, 5)}`;
  const signerName = `${signerFirst} ${signerLast}`;
  // Document A: signer fields on page 1, no notary fields (seal and notary signature go to the last page).
  let originalA: Buffer;
  // Document B: the notary's seal and signature placed on page 1.
  let originalB: Buffer;
  let signedA: Buffer;
  let signedB: Buffer;
  let listed: any;

  const SIGNATURE_BOX = { x: 72, y: 420, width: 260, height: 30 };
  const DATE_BOX = { x: 360, y: 420, width: 140, height: 20 };

  before(async function () {
    this.timeout(180_000);
    // Hawaii keeps UTC−10 all year: the act's local time there is known without a time-zone table.
    notary = await notaryAccount({ state: 'HI', county: 'Honolulu' });
    originalA = await pdfBytes(2, undefined, `Deed ${crypto.randomUUID()}`);
    originalB = await pdfBytes(2, undefined, `Affidavit ${crypto.randomUUID()}`);
    const body = await sessionBody({
      session_notary_email: notary.notaryEmail,
      // The US statutes' spelling, in any case: the certificate names the acts as the service spells them.
      notarization_types: 'acknowledgment, JURAT',
      all_signers: [
        signer(0, { first_name: signerFirst, last_name: signerLast, authentication_type: 'kba' }),
      ],
      session_documents: [
        {
          name: 'deed.pdf',
          base64Doc: b64(originalA),
          annotations: [
            annotation({ fieldType: 'signature', ...SIGNATURE_BOX }),
            annotation({ fieldType: 'date_signed', ...DATE_BOX }),
          ],
        },
        {
          name: 'affidavit.pdf',
          base64Doc: b64(originalB),
          annotations: [
            annotation({ fieldType: 'notary_seal', role: 'notary', x: 72, y: 450, width: 200, height: 120 }),
            annotation({
              fieldType: 'notary_signature',
              role: 'notary',
              x: 320,
              y: 500,
              width: 240,
              height: 30,
            }),
          ],
        },
      ],
    });
    await notaryAdopts(await memberToken(notary.vendorKey, notary.notaryEmail), notary.notaryName);
    const done = await completedSession(notary.apiKey, body);
    sessionId = done.id;
    completedAt = done.session.completed_at;
    const all = await downloadAll(notary.apiKey, sessionId);
    listed = all.listed;
    assert.equal(all.files.length, 2, 'both documents are listed');
    signedA = all.files[0].bytes;
    signedB = all.files[1].bytes;
  });

  after(() => removeTempFiles());

  it('both documents of the session come out as PDFs that pdfsig validates (ETSI.CAdES.detached, whole document)', async () => {
    assert.deepEqual(
      listed.documents.map((d: any) => d.name),
      ['deed.pdf', 'affidavit.pdf'],
    );
    for (const [name, bytes] of [
      ['deed.pdf', signedA],
      ['affidavit.pdf', signedB],
    ] as const) {
      assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-', `${name} is a PDF`);
      const out = await assertValidSignature(bytes, name);
      // The development CA is not a trusted root: reported, and expected.
      assert.match(out, /Certificate Validation:/, `${name}: pdfsig reports on the certificate\n${out}`);
    }
  });

  it('the signature is made with the development certificate generated under DATA_DIR', async () => {
    const out = (await pdfsig(signedA)).stdout;
    assert.match(out, /Signer Certificate Common Name: .*Notarization Service/i, out);
  });

  it('changing one byte of the /Producer value (inside the signed range) breaks the signature', async () => {
    const ranges = byteRanges(signedA);
    const text = signedA.toString('latin1');
    const at = text.indexOf('/Producer');
    assert.ok(at > 0, 'the signed PDF has a /Producer entry');
    // The first character of the value that is a letter or digit: change it to another of its kind.
    let offset = at + '/Producer'.length;
    while (!/[0-9A-Za-z]/.test(text[offset])) offset++;
    assert.ok(inRanges(ranges, offset), `offset ${offset} is in the signed ranges ${JSON.stringify(ranges)}`);
    const tampered = Buffer.from(signedA);
    // A digit in a hex or literal string stays valid there: the file still parses, only the digest changes.
    tampered[offset] = text[offset] === '0' ? 0x31 : 0x30;
    assert.notEqual(tampered[offset], signedA[offset]);
    await assertBroken(tampered, '/Producer changed');
  });

  it('changing one byte after the signature (second signed range) breaks the signature', async () => {
    const ranges = byteRanges(signedA);
    const text = signedA.toString('latin1');
    // A line break after an `endobj` in the second range: changing it to a space keeps the file's
    // structure (and every xref offset) and changes only signed bytes.
    let offset = -1;
    for (let i = text.indexOf('endobj', ranges[1][0]); i >= 0; i = text.indexOf('endobj', i + 1)) {
      const next = i + 'endobj'.length;
      if (next < ranges[1][1] && text[next] === '\n') {
        offset = next;
        break;
      }
    }
    assert.ok(offset > 0, 'an object ends in the second signed range');
    const tampered = Buffer.from(signedA);
    tampered[offset] = 0x20;
    await assertBroken(tampered, 'byte after the signature changed');
  });

  it('bytes appended after signing are reported as not covered by the signature', async () => {
    // Bytes appended after %%EOF are outside the ByteRange: pdfsig must no longer say the whole document is signed.
    const tampered = Buffer.concat([signedA, Buffer.from('\n% appended after signing\n')]);
    const out = (await pdfsig(tampered)).stdout;
    assert.doesNotMatch(out, /Total document signed/, out);
  });

  it('each PDF is the original, a signature page for whom it names no place (issue 69), and the certificate', async () => {
    assert.equal(await pageCount(originalA), 2);
    assert.equal(await pageCount(signedA), 4);
    assert.equal(await pageCount(signedB), 4);
    assert.match(squash(await pdftotext(signedA, 3, 3)), /SIGNATURE PAGE Part of: deed\.pdf/);
    assert.match(squash(await pdftotext(signedB, 3, 3)), /SIGNATURE PAGE Part of: affidavit\.pdf/);
  });

  it('the certificate page states the acts, the venue, the date, the notary and commission, the session and the original sha256', async () => {
    const documents = await query<{ name: string; sha256: string }>(
      'SELECT name, sha256 FROM documents WHERE session_id = $1 ORDER BY position',
      [sessionId],
    );
    assert.deepEqual(
      documents.map((d) => d.sha256),
      [sha256(originalA), sha256(originalB)],
      'the documents table keeps the sha256 of the uploads',
    );
    for (const [bytes, original, name] of [
      [signedA, originalA, 'deed.pdf'],
      [signedB, originalB, 'affidavit.pdf'],
    ] as const) {
      const certificate = squash(await pdftotext(bytes, 4, 4));
      for (const expected of [
        'CERTIFICATE OF NOTARIAL ACT',
        'Acknowledgement',
        'Jurat',
        'State of Hawaii',
        'County of Honolulu',
        notary.notaryName,
        notary.commissionNumber,
        notary.commissionExpiresOn,
        sessionId,
        sha256(original),
        signerName,
        // The signer passed KBA in the session (test/documents/helpers): the certificate cites the check.
        'identity established by knowledge-based authentication, passed on attempt 1',
        // Dated where the notary is commissioned, with the instant in UTC.
        `Date of the act: ${hawaiiTime(completedAt)} HST (${completedAt})`,
      ]) {
        assert.ok(
          certificate.includes(expected),
          `${name}: certificate page should contain ${JSON.stringify(expected)}; text:\n${certificate}`,
        );
      }
      // The original pages carry no certificate.
      assert.doesNotMatch(squash(await pdftotext(bytes, 1, 3)), /CERTIFICATE OF NOTARIAL ACT/);
    }
  });

  it('the original pages keep their content', async () => {
    const text = squash(await pdftotext(signedA, 1, 2));
    assert.match(text, /Deed [0-9a-f-]+ page 1/);
    assert.match(text, /Deed [0-9a-f-]+ page 2/);
  });

  it('without notary fields, the seal is on the signature page and the certificate, never on the document’s pages', async () => {
    const pages = await imagePages(signedA);
    assert.deepEqual(
      [...new Set(pages)],
      [3, 4],
      `images on the signature page and the certificate; images on ${pages.join(',')}`,
    );
    assert.deepEqual(await imagePages(originalA), [], 'the upload itself has no images');
  });

  it("without a notary_signature field, the notary's adopted signature is on the signature page, no typed /s/", async () => {
    const page = squash(await pdftotext(signedA, 3, 3));
    assert.ok(
      page.includes(`${notary.notaryName} Notary Public · Commission ${notary.commissionNumber}`),
      page,
    );
    assert.equal((await imagesOn(signedA, 3)).length, 2, 'the seal and the notary’s mark');
    for (const p of [1, 2, 3, 4])
      assert.ok(!squash(await pdftotext(signedA, p, p)).includes('/s/'), `page ${p}`);
  });

  it("a test-mode signer 'signature' place nobody signed carries a TEST SIGNATURE stamp inside its box, never a typed name", async () => {
    const page1 = squash(await pdftotext(signedA, 1, 1));
    assert.ok(!page1.includes(`/s/ ${signerName}`), `no typed signature on page 1:\n${page1}`);
    assert.ok(page1.includes('TEST SIGNATURE'), `page 1 text:\n${page1}`);
    const words = await wordBoxes(signedA, 1);
    const stamp = words.find((w) => w.text === 'SIGNATURE');
    assert.ok(stamp, `the stamp on page 1: ${JSON.stringify(words)}`);
    const tolerance = 3;
    assert.ok(
      stamp.xMin >= SIGNATURE_BOX.x - tolerance &&
        stamp.xMax <= SIGNATURE_BOX.x + SIGNATURE_BOX.width + tolerance &&
        stamp.yMin >= SIGNATURE_BOX.y - tolerance &&
        stamp.yMax <= SIGNATURE_BOX.y + SIGNATURE_BOX.height + tolerance,
      `the stamp ${JSON.stringify(stamp)} lies inside the annotation ${JSON.stringify(SIGNATURE_BOX)} (y from the top)`,
    );
  });

  it("a 'date_signed' field puts the date of the act where the notary is commissioned on its page, inside its box", async () => {
    const date = new Date(Date.parse(completedAt) - HAWAII_OFFSET).toISOString().slice(0, 10);
    const page1 = squash(await pdftotext(signedA, 1, 1));
    assert.ok(page1.includes(date), `page 1 should carry ${date}:\n${page1}`);
    const words = await wordBoxes(signedA, 1);
    const word = words.find((w) => w.text === date);
    assert.ok(word, `the date as one word on page 1: ${JSON.stringify(words)}`);
    const tolerance = 3;
    assert.ok(
      word.xMin >= DATE_BOX.x - tolerance &&
        word.xMax <= DATE_BOX.x + DATE_BOX.width + tolerance &&
        word.yMin >= DATE_BOX.y - tolerance &&
        word.yMax <= DATE_BOX.y + DATE_BOX.height + tolerance,
      `the date ${JSON.stringify(word)} lies inside the annotation ${JSON.stringify(DATE_BOX)}`,
    );
  });

  it("with a 'notary_seal' field the seal is on that page (and not placed again on the last page)", async () => {
    const pages = await imagePages(signedB);
    // The signature page holds only the signer's place (unsigned in test mode: stamped, no image).
    assert.deepEqual(
      [...new Set(pages)],
      [1, 4],
      `the field's page and the certificate; images on ${pages.join(',')}`,
    );
  });

  it("with a 'notary_signature' field the notary's adopted signature is drawn inside it", async () => {
    const box = { x: 320, y: 500, width: 240, height: 30 };
    const images = await imagesOn(signedB, 1);
    assert.ok(
      images.some((i) => within(i, box)),
      `the notary's mark inside ${JSON.stringify(box)}: ${JSON.stringify(images)}`,
    );
  });

  it('the signed documents are recorded with the sha256 and size of the signed bytes', async () => {
    const rows = await query<{ sha256: string; size_bytes: number }>(
      `SELECT s.sha256, s.size_bytes FROM signed_documents s JOIN documents d ON d.id = s.document_id
        WHERE s.session_id = $1 ORDER BY d.position`,
      [sessionId],
    );
    assert.deepEqual(rows, [
      { sha256: sha256(signedA), size_bytes: signedA.length },
      { sha256: sha256(signedB), size_bytes: signedB.length },
    ]);
  });
});
