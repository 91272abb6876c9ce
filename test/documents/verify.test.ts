import assert from 'node:assert/strict';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { b64, pdfBytes, PNG_1x1 } from '../support/documents';
import { launchBrowser } from '../support/browser';
import { assertAccessible } from '../support/accessibility';
import { testEnvironment } from '../support/environment';
import { sessionBody, signer } from '../support/sessions';
import { completedSession, downloadAll, notaryAccount, tempFile } from './helpers';

const SCREENSHOTS = path.join(__dirname, '..', '..', '.data', 'screenshots');

/** POST /verify with raw bytes, as anyone holding a file would. */
async function verify(bytes: Buffer, type = 'application/pdf') {
  const res = await fetch(`${testEnvironment().apiUrl}/api/integrationsv2/verify`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: bytes,
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe('public verification: POST /verify and the /verify page (issue 69)', function () {
  this.timeout(180_000);
  let issued: Buffer;
  let notary: Awaited<ReturnType<typeof notaryAccount>>;
  let browser: Browser;

  before(async function () {
    this.timeout(180_000);
    notary = await notaryAccount({ state: 'TX' });
    const body = await sessionBody({
      session_notary_email: notary.notaryEmail,
      notarization_types: 'Jurat',
      all_signers: [signer(0)],
      session_documents: [
        { name: 'affidavit.pdf', base64Doc: b64(await pdfBytes(1, undefined, 'Affidavit')) },
      ],
    });
    const done = await completedSession(notary.apiKey, body);
    [issued] = (await downloadAll(notary.apiKey, done.id)).files.map((f) => f.bytes);
    browser = await launchBrowser();
  });
  after(async () => browser?.close());

  it('an issued PDF: issued with the act; one flipped byte or another PDF: issued false and nothing else', async () => {
    const yes = await verify(issued);
    assert.equal(yes.status, 200);
    assert.equal(yes.body.response, 'Pass');
    assert.equal(yes.body.issued, true);
    assert.equal(yes.body.act, 'Jurat');
    assert.deepEqual(yes.body.notary, { name: notary.notaryName, commission_state: 'TX' });
    assert.equal(yes.body.test, true);
    assert.ok(Date.parse(yes.body.notarized_at) > 0);

    const flipped = Buffer.from(issued);
    flipped[Math.floor(flipped.length / 2)] ^= 0x01;
    for (const other of [flipped, await pdfBytes(1)]) {
      const no = await verify(other);
      assert.equal(no.status, 200);
      assert.deepEqual(no.body, { response: 'Pass', issued: false });
    }
  });

  it('not a PDF is 400; another content type 415', async () => {
    const png = await verify(PNG_1x1);
    assert.equal(png.status, 400);
    assert.equal(png.body.response_message, 'The body is not a PDF');
    assert.equal((await verify(issued, 'application/json')).status, 415);
  });

  it('the page: a person drops the PDF and reads the answer (axe-clean at phone width)', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${testEnvironment().apiUrl}/verify`);
    await assertAccessible(page, 'the verification page');
    await page
      .getByLabel('The PDF to check (at most 25 MB)')
      .setInputFiles(tempFile(issued, 'affidavit.pdf'));
    await page.getByRole('button', { name: 'Check the document' }).click();
    await page.getByRole('heading', { name: /is a document this service issued, unchanged/ }).waitFor();
    assert.match(await page.locator('#answer').innerText(), /Jurat/);
    await assertAccessible(page, 'an issued document');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'verify-issued-phone.png'), fullPage: true });
    const changed = Buffer.from(issued);
    changed[100] ^= 0x01;
    await page.getByLabel('The PDF to check (at most 25 MB)').setInputFiles(tempFile(changed, 'copy.pdf'));
    await page.getByRole('button', { name: 'Check the document' }).click();
    await page.getByRole('heading', { name: /not a document this service issued/ }).waitFor();
    await assertAccessible(page, 'an unknown document');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'verify-unknown-phone.png'), fullPage: true });
    await context.close();
  });
});
