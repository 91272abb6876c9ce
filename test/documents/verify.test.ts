import assert from 'node:assert/strict';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { b64, pdfBytes, PNG_1x1 } from '../support/documents';
import { launchBrowser } from '../support/browser';
import { assertAccessible } from '../support/accessibility';
import { testEnvironment } from '../support/environment';
import { action, sessionBody, signer, waitForSession } from '../support/sessions';
import { completedSession, download, downloadAll, notaryAccount, tempFile } from './helpers';
import { request } from '../support/http';
import { memberToken } from '../team/helpers';

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

  it('a document its notary still holds (notary_manual) is not issued until released', async () => {
    const { id } = await completedSession(
      notary.apiKey,
      await sessionBody({
        session_notary_email: notary.notaryEmail,
        final_documents_delivery_mode: 'notary_manual',
      }),
      'held',
    );
    const token = await memberToken(notary.vendorKey, notary.notaryEmail);
    const listed = await request(`/api/integrationsv2/sessions/${id}/notarized_documents`, { auth: token });
    assert.equal(listed.status, 200, listed.text);
    const held = await download(listed.body.documents[0].download_url);
    assert.deepEqual((await verify(held.bytes)).body, { response: 'Pass', issued: false });
    assert.equal((await action(notary.apiKey, id, 'release_documents')).status, 200);
    await waitForSession(notary.apiKey, id, (s) => s.documents_status === 'released');
    assert.equal((await verify(held.bytes)).body.issued, true);
  });

  it('not a PDF is 400; another content type 415; over 25 MB 413', async () => {
    const png = await verify(PNG_1x1);
    assert.equal(png.status, 400);
    assert.equal(png.body.response_message, 'The body is not a PDF');
    assert.equal((await verify(issued, 'application/json')).status, 415);
    const huge = await verify(Buffer.concat([issued, Buffer.alloc(25 * 1024 * 1024)]));
    assert.equal(huge.status, 413);
    assert.equal(huge.body.response_message, 'Request body exceeds 26214400 bytes');
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
