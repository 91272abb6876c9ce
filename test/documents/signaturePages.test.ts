import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { request } from '../support/http';
import { b64 } from '../support/documents';
import { action, sessionBody, signer, tokenOf, waitForSession } from '../support/sessions';
import { applyEverywhere, consentAndAdopt, notaryAdopts } from '../support/signing';
import { memberToken } from '../team/helpers';
import {
  downloadAll,
  inProgressSession,
  notaryAccount,
  pageCount,
  pageLayout,
  pdftotext,
  runTool,
  squash,
  tempFile,
  type PageBox,
  within,
} from './helpers';

const SCREENSHOTS = path.join(__dirname, '..', '..', '.data', 'screenshots', 'documents');

/** A letter page of text from the top margin down to the bottom one (36 pt), as a deed's last page is. */
async function fullPagesPdf(pages: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= pages; p++) {
    const page = pdf.addPage([612, 792]);
    for (let y = 792 - 48, line = 1; y >= 36; y -= 12, line++)
      page.drawText(
        `Page ${p} line ${line}: the grantor conveys the parcel described in schedule A hereto.`,
        {
          x: 36,
          y,
          size: 10,
          font,
        },
      );
  }
  return Buffer.from(await pdf.save());
}

const overlap = (a: PageBox, b: PageBox) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('never stamped over the document: the signature page (issue 69)', function () {
  this.timeout(240_000);

  it('a text PDF full to its bottom margin, completed with default places: nothing drawn over its text; the signature page carries the marks', async () => {
    const notary = await notaryAccount();
    const original = await fullPagesPdf(2);
    const body = await sessionBody({
      session_notary_email: notary.notaryEmail,
      all_signers: [
        signer(0, { first_name: 'Rosa', last_name: 'Grantor' }),
        signer(1, { first_name: 'Ivan', last_name: 'Grantee' }),
      ],
      session_documents: [{ name: 'deed.pdf', base64Doc: b64(original) }],
    });
    await notaryAdopts(await memberToken(notary.vendorKey, notary.notaryEmail), notary.notaryName);
    const created = await inProgressSession(notary.apiKey, body);
    const links: string[] = created.signing_urls.map((s: { bn_signing_url: string }) => s.bn_signing_url);
    const view = (await request(`/sign/${tokenOf(links[0])}/signing`)).body;
    const [document] = view.documents;
    assert.equal(document.pages.length, 3, 'the two pages and the signature page are shown');
    const places = document.places as Array<PageBox & { page: number; participant: string }>;
    assert.deepEqual(
      places.map((p) => [p.participant, p.page]),
      [
        ['signer-0', 3],
        ['signer-1', 3],
      ],
    );
    const image = await request(`/sign/${tokenOf(links[0])}/documents/${document.id}/pages/3`);
    assert.equal(image.status, 200, image.text);
    assert.equal(image.headers.get('content-type'), 'image/png');
    assert.equal((await request(`/sign/${tokenOf(links[0])}/documents/${document.id}/pages/4`)).status, 404);

    for (const [i, link] of links.entries()) {
      await consentAndAdopt(link, i ? 'Ivan Grantee' : 'Rosa Grantor');
      await applyEverywhere(link);
    }
    assert.equal((await action(notary.apiKey, created.bn_session_id, 'complete')).status, 200);
    await waitForSession(
      notary.apiKey,
      created.bn_session_id,
      (s) => s.documents_status === 'released',
      120_000,
    );
    const [signed] = (await downloadAll(notary.apiKey, created.bn_session_id)).files.map((f) => f.bytes);
    assert.equal(await pageCount(signed), 4, 'the document, its signature page, the certificate');
    // The last page of the document and its signature page, as images to look at.
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    for (const page of [2, 3, 4])
      await runTool('pdftoppm', [
        '-png',
        '-r',
        '60',
        '-f',
        `${page}`,
        '-l',
        `${page}`,
        '-singlefile',
        tempFile(signed),
        path.join(SCREENSHOTS, `full-page-deed-${page}`),
      ]);

    for (const page of [1, 2]) {
      const before = await pageLayout(original, page);
      const after = await pageLayout(signed, page);
      const added = after.texts.filter(
        (t) =>
          !before.texts.some((o) => o.text === t.text && Math.abs(o.y - t.y) < 1 && Math.abs(o.x - t.x) < 1),
      );
      for (const drawn of [...added, ...after.images]) {
        const covered = before.texts.filter((t) => overlap(drawn, t));
        assert.deepEqual(
          covered,
          [],
          `page ${page}: ${JSON.stringify(drawn)} is drawn over the document's text`,
        );
      }
      assert.equal(after.images.length, 0, `page ${page} carries no seal or mark`);
    }

    const signaturePage = await pageLayout(signed, 3);
    const text = squash(await pdftotext(signed, 3, 3));
    assert.match(text, /SIGNATURE PAGE/);
    assert.match(text, /Part of: deed\.pdf/);
    for (const name of ['Rosa Grantor', 'Ivan Grantee', notary.notaryName])
      assert.ok(text.includes(name), text);
    for (const place of places)
      assert.ok(
        signaturePage.images.some((i) => within(i, place)),
        `${place.participant}'s mark inside its box ${JSON.stringify(place)}: ${JSON.stringify(signaturePage.images)}`,
      );
    // The signers' two marks, the seal and the notary's adopted signature; no typed or test signature.
    assert.equal(signaturePage.images.length, 4, JSON.stringify(signaturePage.images));
    assert.doesNotMatch(text, /TEST SIGNATURE|\/s\//);
    for (const image of signaturePage.images)
      for (const t of signaturePage.texts)
        assert.ok(!overlap(t, image), `${JSON.stringify(image)} over ${t.text}`);
  });
});
