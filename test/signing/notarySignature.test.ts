import assert from 'node:assert/strict';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser, launchMediaBrowser, onTestServer } from '../support/browser';
import { assertAccessible } from '../support/accessibility';
import { request } from '../support/http';
import { notaryAccount } from '../documents/helpers';
import { invited, memberToken } from '../team/helpers';
import { adoptInConsole } from '../../demo/signingInPage';
import { liveTeamSession, notaryAction, notaryInRoom, receivingMedia, signerPage } from '../media/helpers';
import { notaryAdopts, notaryIdentifiesSigners, signEverything } from '../support/signing';
import { eventually } from '../support/eventually';

const API = '/api/integrationsv2';
const SCREENSHOTS = path.join(__dirname, '..', '..', '.data', 'screenshots');

describe('the notary adopts a signature and signs with it (issue 69)', function () {
  this.timeout(120_000);
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => browser?.close());

  it('only a notary adopts one; it is served as the mark applied; a bad mark is 400', async () => {
    const notary = await notaryAccount();
    const pretagger = await invited(notary.vendorKey, { business_role: 'pretagger' });
    const token = await memberToken(notary.vendorKey, notary.notaryEmail);
    const other = await memberToken(notary.vendorKey, pretagger.email);
    const none = await request(`${API}/me/signature`, { auth: token });
    assert.equal(none.status, 404);
    assert.equal(none.body.response_message, 'You have not adopted a signature yet');
    const refused = await request(`${API}/me/signature`, {
      auth: other,
      body: { signature: { method: 'typed', style: 'caveat', text: 'P' } },
    });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.response_message, 'Only a notary adopts a notary signature');
    const bad = await request(`${API}/me/signature`, {
      auth: token,
      body: { signature: { method: 'typed', style: 'comic-sans', text: 'N' } },
    });
    assert.equal(bad.status, 400);
    const offThePad = await request(`${API}/me/signature`, {
      auth: token,
      body: {
        signature: {
          method: 'drawn',
          strokes: [
            [
              [10, 20],
              [640, 20],
            ],
          ],
        },
      },
    });
    assert.equal(offThePad.status, 400);
    assert.equal(
      offThePad.body.response_message,
      'signature is typed (method, style, text) or drawn (method, strokes of [x, y] points within 600 × 150)',
    );
    const adopted = await notaryAdopts(token);
    assert.equal(adopted.body.signature.method, 'typed');
    const mark = await request(`${API}/me/signature`, { auth: token });
    assert.equal(mark.status, 200);
    assert.equal(mark.headers.get('content-type'), 'image/png');
  });

  it('a live act, recorded and signed, cannot be completed before its notary adopts a signature', async () => {
    const live = await liveTeamSession({}, { adopted: false });
    assert.equal((await notaryAction(live.notaryToken, live.id, 'start')).status, 200);
    const media = await launchMediaBrowser();
    try {
      const signer = await signerPage(media, live.signingUrl);
      const notary = await notaryInRoom(media, live.notaryToken, live.id);
      for (const { page } of [signer, notary]) await receivingMedia(page, 1);
      await notaryIdentifiesSigners(live.notaryToken, live.id, 1);
      await signEverything(live.signingUrl);
      const refused = await eventually(
        () => notaryAction(live.notaryToken, live.id, 'complete'),
        (r) => r.status === 409 && !/recording/.test(r.body.response_message),
        'the refusal once the act is recorded and signed',
      );
      assert.equal(
        refused.body.response_message,
        'Session cannot be completed before the notary adopts a signature (in the console: Your signature)',
      );
      // What the refusal says to do can be done in the act's own view: the section stays until adopted.
      await adoptInConsole(notary.page);
      await notary.page.locator('#notary-signature[data-adopted]').waitFor({ state: 'hidden' });
      assert.equal((await notaryAction(live.notaryToken, live.id, 'complete')).status, 200);
    } finally {
      await media.close();
    }
  });

  it('in the console: "Your signature", adopted in a handwriting style from its dialog (axe-clean, phone and desk)', async () => {
    const notary = await notaryAccount();
    const token = await memberToken(notary.vendorKey, notary.notaryEmail);
    for (const [width, height, name] of [
      [390, 844, 'phone'],
      [1280, 800, 'desktop'],
    ] as const) {
      const context = await browser.newContext({ viewport: { width, height } });
      await context.addInitScript(
        `sessionStorage.setItem('access_token', ${JSON.stringify(token)});` +
          `sessionStorage.setItem('signed_in_as', 'Signed in as Nora Notary (notary)');` +
          `sessionStorage.setItem('signed_in_name', 'Nora Notary');`,
      );
      const page = await context.newPage();
      await page.goto(onTestServer('https://notary.test/notary'));
      const section = page.getByRole('region', { name: 'Your signature' });
      await section.getByRole('button', { name: /(Adopt|Change) your signature/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Adopt your signature' });
      await dialog.locator('img.preview[src^="blob:"]').first().waitFor();
      await assertAccessible(page, 'the adoption dialog');
      if (name === 'phone') await dialog.getByText('Formal').click();
      else {
        // Drawn with the mouse, as a notary at a desk would, the last flourish past the pad's corner.
        await dialog.getByText('Draw it').click();
        const pad = dialog.getByRole('img', { name: 'Draw your signature here' });
        const box = (await pad.boundingBox())!;
        await page.mouse.move(box.x + 20, box.y + box.height * 0.7);
        await page.mouse.down();
        for (let i = 1; i <= 12; i++)
          await page.mouse.move(box.x + 20 + i * 30, box.y + box.height * (i % 2 ? 0.3 : 0.7));
        await page.mouse.move(box.x + box.width + 40, box.y - 30);
        await page.mouse.up();
      }
      await page.screenshot({ path: path.join(SCREENSHOTS, `console-signature-dialog-${name}.png`) });
      const adopted = page.waitForResponse(
        (r) => r.url().endsWith('/me/signature') && r.request().method() === 'POST',
      );
      await dialog.getByRole('button', { name: 'Adopt this signature' }).click();
      const answer = await adopted;
      assert.equal(answer.status(), 200, await answer.text());
      assert.equal((await answer.json()).signature.method, name === 'phone' ? 'typed' : 'drawn');
      await dialog.waitFor({ state: 'hidden' });
      await section.getByRole('img', { name: 'Your adopted signature' }).waitFor();
      await assertAccessible(page, 'the adopted signature');
      await page.screenshot({ path: path.join(SCREENSHOTS, `console-signature-${name}.png`) });
      await context.close();
    }
    const mark = await request(`${API}/me/signature`, { auth: token });
    assert.equal(mark.status, 200);
  });
});
