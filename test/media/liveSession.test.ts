import assert from 'node:assert/strict';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchMediaBrowser } from '../support/browser';
import { request } from '../support/http';
import { eventually } from '../support/eventually';
import { notaryIdentifiesSigners, signEverything } from '../support/signing';
import { WebhookReceiver, subscribe } from '../support/webhookReceiver';
import { tokenOf, waitForSession } from '../support/sessions';
import { download, downloadAll, pdftotext, removeTempFiles, sha256, squash } from '../documents/helpers';
import { recordHistory } from '../support/histories';
import { probe } from './mediaProbe';
import { testEnvironment } from '../support/environment';
import { unzipSync } from 'fflate';
import { assertAccessible } from '../support/accessibility';
import { liveTeamSession, notaryAction, notaryInRoom, receivingMedia, signerPage } from './helpers';

const SCREENSHOTS = path.join(__dirname, '..', '..', '.data', 'screenshots');
const API = '/api/integrationsv2';

/** The same instant ten years on in UTC; a 29 February falls back to the 28th, as PostgreSQL's calendar does. */
function tenYearsAfter(iso: string): string {
  const end = new Date(iso);
  const later = new Date(end);
  later.setUTCFullYear(end.getUTCFullYear() + 10);
  if (later.getUTCMonth() !== end.getUTCMonth()) later.setUTCDate(0);
  return later.toISOString();
}

describe('the live session: a real media server, the room in the pages, the recording (issue 60)', function () {
  this.timeout(240_000);
  let browser: Browser;
  const receiver = new WebhookReceiver();
  let hookUrl: string;

  before(async () => {
    browser = await launchMediaBrowser();
    hookUrl = await receiver.start();
  });
  after(async () => {
    await browser?.close();
    await receiver.stop();
    removeTempFiles();
  });

  it('signer and notary see and hear each other; the act completes only while recorded; the recording is the evidence', async () => {
    const live = await liveTeamSession();
    await subscribe(live.account.api_key, hookUrl, [
      'recording_started',
      'participant_connected',
      'recording_available',
    ]);
    const recordingOf = () => request(`${API}/sessions/${live.id}/recording`, { auth: live.account.api_key });
    assert.deepEqual((await recordingOf()).body, {
      response: 'Fail',
      response_message: 'Recording not found',
    });
    const early = await request(`/sign/${tokenOf(live.signingUrl)}/media`, { body: {} });
    assert.equal(early.status, 409, 'no room before the notary starts');

    const started = await notaryAction(live.notaryToken, live.id, 'start');
    assert.equal(started.status, 200, started.text);
    const startedAt = Date.now();
    const alone = await notaryAction(live.notaryToken, live.id, 'complete');
    assert.equal(alone.status, 409, 'nobody on camera yet');
    assert.equal(
      alone.body.response_message,
      'Session cannot be completed without a recording of the act: enter the live room with your camera and microphone on (in the console: Enter the live room)',
    );

    const signer = await signerPage(browser, live.signingUrl);
    const notary = await notaryInRoom(browser, live.notaryToken, live.id);
    try {
      const signerSees = await receivingMedia(signer.page);
      const notarySees = await receivingMedia(notary.page);
      assert.ok(signerSees.framesDecoded > 0 && signerSees.audioPacketsReceived > 0);
      assert.ok(notarySees.framesDecoded > 0 && notarySees.audioPacketsReceived > 0);
      assert.equal(await signer.page.locator('.room-status').getAttribute('data-state'), 'live');
      // Each tile is named as the proxy announced its publisher, never as the page claimed.
      await notary.page.locator('figcaption', { hasText: 'First0 Last0' }).waitFor();
      await signer.page.locator('figcaption', { hasText: 'Nora Notary' }).waitFor();
      await assertAccessible(signer.page, 'the signer in the live room');
      await assertAccessible(notary.page, 'the notary in the live room');
      await signer.page.screenshot({ path: path.join(SCREENSHOTS, 'live-room-signer.png'), fullPage: true });
      await notary.page.screenshot({ path: path.join(SCREENSHOTS, 'live-room-notary.png'), fullPage: true });
      assert.equal((await recordingOf()).body.recording.status, 'recording');

      await notaryIdentifiesSigners(live.notaryToken, live.id, 1);
      await signEverything(live.signingUrl);
      const completed = await eventually(
        () => notaryAction(live.notaryToken, live.id, 'complete'),
        (r) => r.status === 200,
        'the completion once the room records the notary and the signer',
      );
      assert.equal(completed.body.status, 'completed');
    } finally {
      await signer.context.close();
      await notary.context.close();
    }
    const actSeconds = (Date.now() - startedAt) / 1000;

    const { body } = await eventually(
      recordingOf,
      (r) => r.body.recording?.status === 'available',
      'the recording',
      {
        timeoutMs: 90_000,
      },
    );
    const recording = body.recording;
    assert.equal(recording.content_type, 'video/webm');
    assert.equal(recording.segments.length, 1);
    const inRoom = recording.segments[0].participants;
    assert.deepEqual(
      inRoom.map((p: any) => p.identity),
      ['notary', 'signer-0'],
    );
    assert.ok(recording.available_at >= recording.ended_at, JSON.stringify(recording));
    assert.equal(recording.retain_until, tenYearsAfter(recording.ended_at), 'kept 10 calendar years (UTC)');
    // The signer's signing time, as the certificate states it, falls where the recording lists the signer
    // and the notary on camera.
    const session = (await request(`${API}/sessions/${live.id}`, { auth: live.account.api_key })).body;
    const signedAt = session.participants[0].signed_at as string;
    for (const who of ['notary', 'signer-0']) {
      const intervals = inRoom.find((p: any) => p.identity === who).intervals;
      assert.ok(
        intervals.some((i: any) => i.from <= signedAt && signedAt <= i.to),
        `${who} on camera at ${signedAt}: ${JSON.stringify(intervals)}`,
      );
    }
    const file = await download(recording.download_url);
    assert.equal(file.status, 200);
    assert.equal(sha256(file.bytes), recording.sha256);
    assert.equal(file.bytes.length, recording.size_bytes);
    // The evidence: each participant's audio and video as received (no re-encoding), titled with who it is.
    const probed = await probe(file.bytes);
    assert.deepEqual(probed.streams, [
      'audio/opus notary',
      'audio/opus signer-0',
      'video/vp8 notary',
      'video/vp8 signer-0',
    ]);
    assert.ok(Date.parse(recording.available_at) - Date.parse(recording.ended_at) <= 60_000);
    assert.deepEqual(
      recording.renditions.map((r: any) => r.kind),
      ['grid'],
    );
    assert.ok(
      Math.abs(probed.duration - actSeconds) <= actSeconds * 0.1,
      `${probed.duration} s of an act of ${actSeconds} s`,
    );

    // The hash is in the audit chain, the journal and the certificate, and went out as a webhook.
    const audit = await request(`${API}/sessions/${live.id}/audit`, { auth: live.account.api_key });
    const stored = audit.body.records.find((r: any) => r.event === 'recording_available');
    assert.equal(stored.payload.data.sha256, recording.sha256);
    assert.equal(audit.body.intact, true);
    await waitForSession(live.account.api_key, live.id, (s) => s.documents_status === 'released', 60_000);
    const journal = await request(`${API}/sessions/${live.id}/journal`, { auth: live.account.api_key });
    assert.equal(journal.body.entries[0].recording.sha256, recording.sha256);
    assert.match(
      journal.body.entries[0].recording.location,
      new RegExp(`recordings/${live.id}/${recording.recording_id}\\.webm$`),
    );
    const [signed] = (await downloadAll(live.account.api_key, live.id)).files;
    // The evidence bundle of a live act, taken by its notary: the recording's metadata and the journal too.
    const bundle = await fetch(`${testEnvironment().apiUrl}${API}/sessions/${live.id}/evidence`, {
      headers: { authorization: `Bearer ${live.notaryToken}` },
    });
    assert.equal(bundle.status, 200);
    const files = unzipSync(new Uint8Array(await bundle.arrayBuffer()));
    const manifest = JSON.parse(Buffer.from(files['manifest.json']).toString());
    assert.deepEqual(manifest.files.map((f: { path: string }) => f.path).slice(-3), [
      'identity.json',
      'recording.json',
      'journal.json',
    ]);
    for (const file of manifest.files)
      assert.equal(sha256(Buffer.from(files[file.path])), file.sha256, file.path);
    assert.ok(Buffer.from(files[manifest.files[0].path]).equals(signed.bytes), 'the PDF as served');
    const inBundle = JSON.parse(Buffer.from(files['recording.json']).toString());
    assert.equal(inBundle.sha256, recording.sha256);
    assert.equal(inBundle.download_url, undefined);
    const certificate = squash(await pdftotext(signed.bytes));
    assert.match(certificate, /using audio-video communication, recorded in full/);
    assert.match(
      certificate,
      /This record was acknowledged before me by means of audio-video communication on \d{4}-\d{2}-\d{2} by First0 Last0\./,
    );
    assert.match(certificate, /signed electronically \S+, on camera with the notary/);
    assert.ok(
      certificate.includes(recording.recording_id) && certificate.includes(recording.sha256),
      certificate,
    );
    assert.doesNotMatch(certificate, /TEST - NOT A NOTARIAL ACT/);
    await recordHistory('session-live-recorded', `session-${live.id}`);
    const hooks = await receiver.waitFor((r) =>
      r.some((h) => h.json.bn_session_id === live.id && h.json.event === 'recording_available'),
    );
    const events = hooks.filter((h) => h.json.bn_session_id === live.id).map((h) => h.json);
    assert.deepEqual(events.find((e) => e.event === 'recording_available').data, {
      sha256: recording.sha256,
      duration_seconds: recording.duration_seconds,
      size_bytes: recording.size_bytes,
    });
    assert.ok(
      events.every((e) => !('test' in e)),
      'a live act’s events carry no test flag',
    );
    assert.deepEqual(
      events
        .filter((e) => e.event === 'participant_connected')
        .map((e) => e.data.role)
        .sort(),
      ['notary', 'signer'],
    );
  });

  it('the waiting room checks the camera, hears of the start at once, and connects the moment the notary starts', async () => {
    const live = await liveTeamSession();
    const signer = await signerPage(browser, live.signingUrl);
    try {
      await signer.page.getByRole('heading', { name: 'Waiting for your notary' }).waitFor();
      const lobby = signer.page.locator('.room-status[data-state="ready"]');
      await lobby.waitFor({ timeout: 20_000 });
      assert.match((await lobby.textContent()) ?? '', /camera and microphone work/);
      assert.equal(
        await signer.page.locator('figure.tile.own video').count(),
        1,
        'the signer sees themselves',
      );
      // Polled through the DevTools protocol: the page's CSP refuses eval, which waitForFunction would use.
      await eventually(
        () => signer.page.evaluate("document.querySelector('figure.tile.own video')?.readyState"),
        (state) => state === 4,
        'the signer’s own video to play',
      );
      await assertAccessible(signer.page, 'the waiting room with its camera check');
      await signer.page.screenshot({ path: path.join(SCREENSHOTS, 'live-room-waiting.png'), fullPage: true });

      // The page's long poll is held while the session is ready, and answered when the notary starts.
      const held = request(`/sign/${tokenOf(live.signingUrl)}?wait_while_status=ready`, {
        headers: { accept: 'application/json' },
      });
      assert.equal((await notaryAction(live.notaryToken, live.id, 'start')).status, 200);
      const moved = await held;
      assert.equal(moved.status, 200);
      assert.equal(moved.body.status, 'in_progress');
      const bad = await request(`/sign/${tokenOf(live.signingUrl)}?wait_while_status=sleeping`, {
        headers: { accept: 'application/json' },
      });
      assert.equal(bad.status, 400);

      const notary = await notaryInRoom(browser, live.notaryToken, live.id);
      try {
        await receivingMedia(signer.page);
        await receivingMedia(notary.page);
      } finally {
        await notary.context.close();
      }
    } finally {
      await signer.context.close();
    }
  });
});
