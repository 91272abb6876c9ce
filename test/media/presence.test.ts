import assert from 'node:assert/strict';
import path from 'node:path';
import { request } from '../support/http';
import { eventually } from '../support/eventually';
import { signer, tokenOf } from '../support/sessions';
import { consentAndAdopt } from '../support/signing';
import { drawOn } from '../../demo/signingInPage';
import { query } from '../team/helpers';
import { ID_FRONT, SELFIE, passIdCheck } from '../support/identity';
import { testEnvironment } from '../support/environment';
import { createTestAccount } from '../support/accounts';
import { assertAccessible } from '../support/accessibility';
import {
  liveTeamSession,
  mediaBrowsers,
  notaryAction,
  notaryInRoom,
  presence,
  receivingMedia,
  signerPage,
} from './helpers';

const API = '/api/integrationsv2';
const SCREENSHOTS = path.join(__dirname, '..', '..', '.data', 'screenshots');

/** The signer's first place: its document and id. */
async function firstPlace(signingUrl: string) {
  const view = (await request(`/sign/${tokenOf(signingUrl)}/signing`)).body;
  return { document_id: view.documents[0].id as string, place_id: view.documents[0].places[0].id as string };
}

const identify = (notaryToken: string, id: string) =>
  request(`${API}/sessions/${id}/signers/0/identification`, {
    auth: notaryToken,
    body: { basis: 'personal_knowledge' },
  });

/** Issue 68: the session guards the act by who is on camera, from the media server's own events. */
describe('presence guards the live act (issue 68)', function () {
  this.timeout(240_000);
  const browsers = mediaBrowsers();

  it('a signer whose camera is blocked is not identified; one who leaves the camera does not sign', async () => {
    const live = await liveTeamSession();
    assert.equal((await notaryAction(live.notaryToken, live.id, 'start')).status, 200);
    const notary = await notaryInRoom(browsers.granted, live.notaryToken, live.id);
    const blocked = await signerPage(browsers.refusing, live.signingUrl);
    try {
      await blocked.page.locator('.room-status[data-state="blocked"]').waitFor({ timeout: 20_000 });
      await eventually(
        () => presence(live.account.api_key, live.id),
        (p) => p.notary === true && p.signer === false,
        'the notary on camera, the signer not',
      );
      // The console marks who is on camera, and why the act waits.
      const progress = notary.page.locator('.signing-progress');
      const blockedMark = progress.locator('[data-presence="camera_blocked"]');
      await blockedMark.waitFor({ timeout: 20_000 });
      assert.equal(await blockedMark.textContent(), ' · camera blocked');
      await progress.getByText(/No signer is on camera yet/).waitFor();
      await assertAccessible(notary.page, 'the console with a signer off camera');
      await notary.page.screenshot({
        path: path.join(SCREENSHOTS, 'presence-console-desktop.png'),
        fullPage: true,
      });
      await notary.page.setViewportSize({ width: 390, height: 844 });
      await notary.page.screenshot({
        path: path.join(SCREENSHOTS, 'presence-console-phone.png'),
        fullPage: true,
      });
      await notary.page.setViewportSize({ width: 1280, height: 900 });
      await blocked.page.screenshot({
        path: path.join(SCREENSHOTS, 'presence-blocked-phone.png'),
        fullPage: true,
      });
      await blocked.page.setViewportSize({ width: 1280, height: 900 });
      await blocked.page.screenshot({
        path: path.join(SCREENSHOTS, 'presence-blocked-desktop.png'),
        fullPage: true,
      });
      const refused = await identify(live.notaryToken, live.id);
      assert.equal(refused.status, 409, refused.text);
      assert.equal(
        refused.body.response_message,
        'Signer 1 is not on camera: identify them once you see and hear them',
      );
      const checks = await query(
        "SELECT 1 FROM identity_checks WHERE session_id = $1 AND method = 'notary'",
        [live.id],
      );
      assert.equal(checks.length, 0, 'a refused identification leaves no trace');
    } finally {
      await blocked.context.close();
    }

    const signer = await signerPage(browsers.granted, live.signingUrl);
    await receivingMedia(notary.page);
    await eventually(
      () => identify(live.notaryToken, live.id),
      (r) => r.status === 200,
      'the identification once the signer is on camera',
    );
    await consentAndAdopt(live.signingUrl, 'Sam Signer');
    await signer.context.close();
    await eventually(
      () => presence(live.account.api_key, live.id),
      (p) => p.signer === false,
      'the signer off camera once their page is gone',
    );
    const unseen = await request(`/sign/${tokenOf(live.signingUrl)}/signatures`, {
      body: await firstPlace(live.signingUrl),
    });
    assert.equal(unseen.status, 409, unseen.text);
    assert.equal(unseen.body.response_message, 'Turn on your camera and microphone to sign');
    await notary.context.close();
  });

  it('signing pauses while the notary is away and resumes when they are back; reloads leave one tile; both sides see the end', async () => {
    const live = await liveTeamSession();
    assert.equal((await notaryAction(live.notaryToken, live.id, 'start')).status, 200);
    const signer = await signerPage(browsers.granted, live.signingUrl);
    let notary = await notaryInRoom(browsers.granted, live.notaryToken, live.id);
    try {
      await receivingMedia(notary.page);
      // The notary identifies whom the session sees on camera, by the media server's word, not the page's.
      await eventually(
        () => presence(live.account.api_key, live.id),
        (p) => p.notary === true && p.signer === true,
        'both on camera before the identification',
      );
      const identified = await identify(live.notaryToken, live.id);
      assert.equal(identified.status, 200, identified.text);
      // The signer draws their signature; the notary steps away and comes back before they adopt it: the
      // pause and its end show above the card, and what they drew is what they adopt.
      const consent = await request(`/sign/${tokenOf(live.signingUrl)}/consent`, {
        body: { accepted: true },
      });
      assert.equal(consent.status, 200, consent.text);
      await signer.page.reload();
      await signer.page.getByRole('heading', { name: /^Adopt your signature/ }).waitFor({ timeout: 20_000 });
      await signer.page.locator('#signing').getByLabel('Draw it').check();
      await drawOn(signer.page, 'Draw your signature here');
      await drawOn(signer.page, 'Draw your initials here');
      await notary.context.close();
      const status = signer.page.locator('#signing .signing-status');
      await status
        .getByText('Signing waits until the notary is back in the room')
        .waitFor({ timeout: 20_000 });
      await assertAccessible(signer.page, 'the adoption while signing waits');
      await signer.page.screenshot({
        path: path.join(SCREENSHOTS, 'presence-paused-adoption-phone.png'),
        fullPage: true,
      });
      notary = await notaryInRoom(browsers.granted, live.notaryToken, live.id);
      await status.getByText('Signing can go on.').waitFor({ timeout: 30_000 });
      const adoption = signer.page.waitForRequest((r) => r.url().endsWith('/adopted_signature'));
      await signer.page.getByRole('button', { name: 'Adopt and continue' }).click();
      const adopted = (await adoption).postDataJSON();
      assert.deepEqual([adopted.signature.method, adopted.initials.method], ['drawn', 'drawn']);
      await signer.page.locator('#signing .place-nav').waitFor();
      // The signer's page reloads: its old connection's late "left" must not hide the new one.
      await signer.page.reload();
      await receivingMedia(notary.page);
      await eventually(
        () => presence(live.account.api_key, live.id),
        (p) => p.notary === true && p.signer === true,
        'both on camera after the reload',
      );
      const recording = notary.page.locator('.signing-progress .camera-note.recording');
      await recording.getByText('● Recording').waitFor({ timeout: 20_000 });
      await notary.page.locator('.signing-progress [data-presence="on_camera"]').waitFor();
      await notary.context.close();
      await eventually(
        () => presence(live.account.api_key, live.id),
        (p) => p.notary === false,
        'the notary gone from the room',
      );
      const place = await firstPlace(live.signingUrl);
      const paused = await request(`/sign/${tokenOf(live.signingUrl)}/signatures`, { body: place });
      assert.equal(paused.status, 409, paused.text);
      assert.equal(paused.body.response_message, 'Signing waits until the notary is back in the room');
      // The signer's page says so by itself, and its places wait.
      await status
        .getByText('Signing waits until the notary is back in the room')
        .waitFor({ timeout: 20_000 });
      // The room beside says so too: the notary's last frame is marked, not passed off as them.
      await signer.page.locator('figcaption', { hasText: 'Nora Notary — not on camera' }).waitFor();
      const sign = signer.page.locator('#signing button.place.mine').first();
      assert.equal(await sign.isDisabled(), true, 'no place can be tapped while the notary is away');
      await assertAccessible(signer.page, 'the signing paused');
      await signer.page.screenshot({
        path: path.join(SCREENSHOTS, 'presence-paused-phone.png'),
        fullPage: true,
      });
      await signer.page.setViewportSize({ width: 1280, height: 900 });
      await signer.page.screenshot({
        path: path.join(SCREENSHOTS, 'presence-paused-desktop.png'),
        fullPage: true,
      });
      await signer.page.setViewportSize({ width: 390, height: 844 });

      notary = await notaryInRoom(browsers.granted, live.notaryToken, live.id);
      await status.getByText('Signing can go on.').waitFor({ timeout: 30_000 });
      await eventually(
        () => signer.page.locator('figcaption', { hasText: 'Nora Notary' }).allTextContents(),
        (captions) => captions.length === 1 && captions[0] === 'Nora Notary',
        'one tile for the notary, seen, on the signer’s page',
      );
      await signer.page.locator('#signing button.place.mine:not([disabled])').first().click();
      await eventually(
        () => request(`/sign/${tokenOf(live.signingUrl)}/signing`),
        (r) => r.body.participants[0].places_done >= 1,
        'the application made in the page once the notary is back',
      );

      // Two more reloads: the notary's page still shows the signer once.
      for (let i = 0; i < 2; i++) await signer.page.reload();
      await receivingMedia(notary.page);
      await eventually(
        () => notary.page.locator('figure.tile:not(.own)').count(),
        (tiles) => tiles === 1,
        'one tile for the signer on the notary’s page',
      );
      assert.equal(await notary.page.locator('.room-people li', { hasText: 'First0 Last0' }).count(), 1);
      await eventually(
        () => notaryAction(live.notaryToken, live.id, 'complete'),
        (r) => r.status === 200,
        'the completion with both on camera',
      );
      // Both sides show the end by themselves, without the others' last frames.
      const ended = notary.page.locator('.room-status[data-state="ended"]');
      await ended.waitFor({ timeout: 15_000 });
      assert.equal(await ended.textContent(), 'The notarization is complete: the live room has closed');
      assert.equal(await notary.page.locator('figure.tile:not(.own)').count(), 0);
      await signer.page.getByText('Your notarization is complete').first().waitFor({ timeout: 15_000 });
    } finally {
      await signer.context.close();
      await notary.context.close();
    }
  });

  it('the notary sees the ID check’s photos beside the room; nobody else does', async () => {
    const live = await liveTeamSession({ all_signers: [signer(0, { authentication_type: 'biometrics' })] });
    await passIdCheck(live.signingUrl);
    assert.equal((await notaryAction(live.notaryToken, live.id, 'start')).status, 200);
    const notary = await notaryInRoom(browsers.granted, live.notaryToken, live.id);
    try {
      const photos = notary.page.locator('.people .id-photos');
      await photos.locator('img[alt="ID front of First0 Last0"][src^="blob:"]').waitFor({ timeout: 20_000 });
      await photos.locator('img[alt="Selfie of First0 Last0"][src^="blob:"]').waitFor();
      await assertAccessible(notary.page, 'the console with the ID check’s photos');
      await notary.page.screenshot({
        path: path.join(SCREENSHOTS, 'presence-console-id-photos-desktop.png'),
        fullPage: true,
      });
    } finally {
      await notary.context.close();
    }
    const photo = (kind: string, auth?: string) =>
      fetch(`${testEnvironment().apiUrl}${API}/sessions/${live.id}/participants/signer/0/id_check/${kind}`, {
        headers: auth ? { authorization: `Bearer ${auth}` } : {},
      });
    for (const [kind, sent] of [
      ['id_front', ID_FRONT],
      ['selfie', SELFIE],
    ] as const) {
      const res = await photo(kind, live.notaryToken);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'image/png');
      assert.ok(Buffer.from(await res.arrayBuffer()).equals(sent), `${kind} kept byte for byte`);
    }
    assert.equal((await photo('id_back', live.notaryToken)).status, 404, 'no back was sent');
    const stranger = await createTestAccount();
    assert.equal((await photo('selfie', stranger.api_key)).status, 404);
    assert.equal((await photo('selfie')).status, 401);
  });
});
