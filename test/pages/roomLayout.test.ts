import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchMediaBrowser } from '../support/browser';
import { assertAccessible } from '../support/accessibility';
import { assertInFirstViewport, assertReadableAndTappable } from '../support/layout';
import { eventually } from '../support/eventually';
import { request } from '../support/http';
import { createTestAccount } from '../support/accounts';
import { annotation, b64, pdfBytes } from '../support/documents';
import { joinSession, signer, waitForSession } from '../support/sessions';
import { liveTeamSession, notaryAction, notaryInRoom, receivingMedia, signerPage } from '../media/helpers';
import { signInPage } from '../../demo/signingInPage';

const API = '/api/integrationsv2';
const PHONE = { width: 390, height: 844 };
const DESK = { width: 1280, height: 800 };
const SHOTS = path.join(__dirname, '..', '..', '.data', 'screenshots', 'pages');

/** Each state, looked at as the person sees it at both widths, and held to axe-core. */
async function bothWidths(page: Page, name: string, back: { width: number; height: number }) {
  for (const [size, suffix] of [
    [PHONE, 'phone'],
    [DESK, 'desk'],
  ] as const) {
    await page.setViewportSize(size);
    await assertAccessible(page, `${name} at ${suffix} width`);
    // What the first screen shows, as the person sees it on arrival.
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, `room-${name}-${suffix}.png`) });
  }
  await page.setViewportSize(back);
}

type LiveSession = Awaited<ReturnType<typeof liveTeamSession>>;

async function identify(live: LiveSession, who: number): Promise<void> {
  const identified = await eventually(
    () =>
      request(`${API}/sessions/${live.id}/signers/${who}/identification`, {
        auth: live.notaryToken,
        body: { basis: 'personal_knowledge' },
      }),
    (r) => r.status === 200,
    `the notary identifying signer ${who} on camera`,
  );
  assert.equal(identified.status, 200, identified.text);
}

/**
 * The signer waits on their document, brought to their place, while the notary confirms who they are: the
 * page's step is drawn again with that, and the signer stays where they are.
 */
async function identifiedOnTheDocument(page: Page, live: LiveSession): Promise<void> {
  const place = page.locator('#signing button.place.mine').first();
  await eventually(
    () => place.boundingBox(),
    (b) => Boolean(b && b.y >= 0 && b.y + b.height <= PHONE.height),
    'the place to sign brought into view on arrival',
  );
  const step = page.locator('#step > *').first();
  await step.evaluate((node) => node.setAttribute('data-before', 'identified'));
  await identify(live, 0);
  await eventually(
    () => page.locator('#step [data-before], #signing .notice').count(),
    (n) => n === 0,
    'the step and the document drawn again once the signer is identified',
  );
  assert.notEqual(await page.evaluate('document.activeElement && document.activeElement.id'), 'step-title');
}

/** The document first, readable at 100 %, its current place in view, zoomable, under movable videos. */
async function documentOnAPhone(page: Page): Promise<void> {
  const signing = page.locator('#signing');
  const firstPlace = signing.locator('button.place.mine').first();
  await firstPlace.waitFor();
  await eventually(
    () => firstPlace.boundingBox(),
    (b) => Boolean(b && b.y >= 0 && b.y + b.height <= PHONE.height),
    'the current place scrolled into view',
  );
  await assertReadableAndTappable(page, 'the document on a phone');
  await page.screenshot({ path: path.join(SHOTS, 'room-document-arrival-phone.png') });
  const scale = async () => {
    const img = signing.locator('.doc-page img').first();
    return ((await img.boundingBox())?.width ?? 0) / 612;
  };
  assert.ok((await scale()) >= 1, `a point of the document is at least a pixel: ${await scale()}`);
  await page.evaluate('window.scrollTo(0, 0)');
  const top = (await signing.locator('.doc-page').first().boundingBox())!.y;
  assert.ok(top < PHONE.height * 0.75, `the document begins high in the first screen, at ${top} px`);
  await signing.getByRole('button', { name: 'Zoom out' }).click();
  await signing.getByText('75 %').waitFor();
  assert.ok(Math.abs((await scale()) - 0.75) < 0.01);
  await signing.getByRole('button', { name: 'Fit width' }).click();
  assert.ok((await scale()) * 612 <= PHONE.width, 'fitted to the phone');
  await signing.getByRole('button', { name: 'Zoom in' }).click();
  await signing.getByRole('button', { name: 'Zoom in' }).click();
  await signing.getByText('100 %').waitFor();

  // The videos: a compact panel over the document, moved off the place to sign.
  const room = page.locator('#room');
  const docked = (await room.boundingBox())!;
  assert.ok(docked.height < 200 && docked.y + docked.height <= PHONE.height, JSON.stringify(docked));
  await room.getByRole('button', { name: 'Move videos' }).click();
  const moved = (await room.boundingBox())!;
  assert.ok(moved.y + moved.height < docked.y, `moved to the top: ${JSON.stringify([docked, moved])}`);
}

/** The marks the console draws, as the API gives them: to the session's own people, nobody else's. */
async function appliedMarksThroughTheApi(live: LiveSession): Promise<void> {
  const view = await request(`${API}/sessions/${live.id}/signing`, { auth: live.account.api_key });
  const [deed] = view.body.documents;
  const applied = deed.places.find((p: { applied_at?: string }) => p.applied_at);
  const path = (place: string) => `${API}/sessions/${live.id}/documents/${deed.id}/places/${place}/mark`;
  const mark = await request(path(applied.id), { auth: live.account.api_key });
  assert.equal(mark.status, 200);
  assert.equal(mark.headers.get('content-type'), 'image/png');
  const none = await request(path('no-such-place'), { auth: live.notaryToken });
  assert.equal(none.status, 404);
  assert.equal(none.body.response_message, 'No mark applied at that place');
  const stranger = await createTestAccount({ testMode: false });
  const theirs = await request(path(applied.id), { auth: stranger.api_key });
  assert.equal(theirs.status, 404, 'another account does not learn the session exists');
  assert.equal(theirs.body.response_message, 'Session not found');
}

describe('the room works on a phone and at a notary’s desk (issue 70)', function () {
  this.timeout(300_000);
  let browser: Browser;
  before(async () => {
    browser = await launchMediaBrowser();
  });
  after(async () => browser?.close());

  it('a phone signs a readable, zoomable document under docked videos; the desk runs the act in one view', async () => {
    const live = await liveTeamSession({
      all_signers: [signer(0), signer(1)],
      session_documents: [
        {
          name: 'deed.pdf',
          base64Doc: b64(await pdfBytes(2, undefined, 'Deed')),
          annotations: [
            annotation({ x: 72, y: 520, width: 200, height: 50, participant_index: 0 }),
            // The small place the issue found: 80×40 pt, once drawn 47×19 px with half its label.
            annotation({
              fieldType: 'initials',
              pageNum: 2,
              x: 480,
              y: 700,
              width: 80,
              height: 40,
              participant_index: 0,
            }),
            annotation({ pageNum: 2, x: 72, y: 300, width: 220, height: 50, participant_index: 1 }),
          ],
        },
      ],
    });
    assert.equal((await joinSession(live.signingUrls[1])).status, 200);
    const phone = await signerPage(browser, live.signingUrl);
    await phone.page.getByRole('heading', { name: 'Waiting for your notary' }).waitFor({ timeout: 30_000 });
    await phone.page.locator('#room .tile video').first().waitFor({ timeout: 30_000 });
    await assertReadableAndTappable(phone.page, 'the waiting room on a phone');
    await bothWidths(phone.page, 'waiting', PHONE);
    assert.equal((await notaryAction(live.notaryToken, live.id, 'start')).status, 200);
    const notary = await notaryInRoom(browser, live.notaryToken, live.id);
    const desk = await signerPage(browser, live.signingUrls[1]);
    try {
      await notary.page.setViewportSize(DESK);
      await phone.page.setViewportSize(PHONE);
      await desk.page.setViewportSize(DESK);
      await receivingMedia(notary.page, 2, 60_000);
      await receivingMedia(phone.page, 2, 60_000);
      await identify(live, 1);
      await signInPage(desk.page, 'typed');
      // Another signer's progress redraws only the places it changed: what the desk's signer sees stays put.
      const deskPlace = desk.page.locator('#signing .place.applied').first();
      const kept = `#signing [data-place="${await deskPlace.getAttribute('data-place')}"]`;
      await deskPlace.evaluate((node) => node.setAttribute('data-seen', 'before'));
      await signInPage(phone.page, 'typed', {
        shown: async (step) => {
          await assertReadableAndTappable(phone.page, `the ${step} on a phone`);
          if (step === 'document') {
            await identifiedOnTheDocument(phone.page, live);
            await documentOnAPhone(phone.page);
          }
          await bothWidths(phone.page, step, PHONE);
        },
      });
      // The other signer's page follows: the phone's marks appear there without a reload.
      await desk.page
        .locator('#signing')
        .getByText('Signed by First0 Last0')
        .first()
        .waitFor({ timeout: 30_000 });
      assert.equal(
        await desk.page.locator(kept).getAttribute('data-seen'),
        'before',
        'the desk’s page was redrawn',
      );

      // The desk: videos, people with identity, documents with applied marks, and Complete, in one view.
      const act = notary.page.locator('#act-card section.session');
      await act.waitFor();
      const marks = notary.page.locator('#documents-view img[data-mark]');
      await eventually(
        () =>
          marks.evaluateAll(
            (imgs) => imgs.filter((i) => (i as unknown as { naturalWidth: number }).naturalWidth > 0).length,
          ),
        (n) => n === 3,
        'the three marks drawn in the notary’s documents',
      );
      const complete = act.getByRole('button', { name: /^Complete: / });
      await assertInFirstViewport(notary.page, complete, 'Complete');
      await assertInFirstViewport(notary.page, notary.page.locator('#room .tile').first(), 'the videos');
      await assertInFirstViewport(
        notary.page,
        act.getByText('First1 Last1', { exact: true }).first(),
        'the people',
      );
      await assertInFirstViewport(notary.page, act.getByText(/Identified by the notary/).first(), 'identity');
      const side = (await notary.page.locator('#side').boundingBox())!;
      const documents = (await notary.page.locator('#documents-view').boundingBox())!;
      assert.ok(documents.x >= side.x + side.width, 'the documents beside the act');
      await assertReadableAndTappable(notary.page, 'the notary’s act at a desk', { targetsIn: '#act-card' });
      await bothWidths(notary.page, 'notary-act', DESK);
      await appliedMarksThroughTheApi(live);

      await complete.click();
      await notary.page.getByRole('dialog').getByRole('button', { name: 'Complete the act' }).click();
      await waitForSession(live.account.api_key, live.id, (s) => s.status === 'completed', 60_000);
      await phone.page
        .getByRole('heading', { name: /complete/i })
        .first()
        .waitFor({ timeout: 30_000 });
      await bothWidths(phone.page, 'done', PHONE);
      await bothWidths(notary.page, 'notary-done', DESK);
    } catch (e) {
      fs.mkdirSync(SHOTS, { recursive: true });
      for (const [p, n] of [
        [phone, 'phone'],
        [desk, 'desk'],
        [notary, 'notary'],
      ] as const)
        await p.page
          .screenshot({ path: path.join(SHOTS, `room-failed-${n}.png`), fullPage: true })
          .catch(() => undefined);
      throw e;
    } finally {
      for (const p of [phone, desk, notary]) await p.context.close();
    }
  });
});
