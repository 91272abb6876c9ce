import assert from 'node:assert/strict';
import path from 'node:path';
import { assertAccessible } from '../support/accessibility';
import { testEnvironment } from '../support/environment';
import { eventually } from '../support/eventually';
import { notaryIdentifiesSigners, signEverything } from '../support/signing';
import { request } from '../support/http';
import { tokenOf, waitForSession } from '../support/sessions';
import { downloadAll, pdftotext, removeTempFiles, squash } from '../documents/helpers';
import { recordHistory } from '../support/histories';
import { readPid } from '../../server/embedded/pidFile';
import {
  liveTeamSession,
  mediaBrowsers,
  notaryAction,
  notaryInRoom,
  presence,
  receivingMedia,
  refuseNextJoin,
  roomStats,
  signerPage,
} from './helpers';

const SCREENSHOTS = path.join(__dirname, '..', '..', '.data', 'screenshots');
const API = '/api/integrationsv2';

/** Video frames a page decodes in about two seconds of a fake camera. */
const RECORDED_FRAMES = 60;

type LiveSession = Awaited<ReturnType<typeof liveTeamSession>>;

/** The signer identified and signed, then the act completed (retried until the new room records them). */
async function completeInSecondSegment(live: LiveSession): Promise<void> {
  await notaryIdentifiesSigners(live.notaryToken, live.id, 1);
  await signEverything(live.signingUrl);
  await eventually(
    () => notaryAction(live.notaryToken, live.id, 'complete'),
    (r) => r.status === 200,
    'the completion in the second segment',
    { timeoutMs: 30_000 },
  );
}

/** The act's recording once its evidence is stored. */
async function storedRecording(live: LiveSession) {
  const { body } = await eventually(
    () => request(`${API}/sessions/${live.id}/recording`, { auth: live.account.api_key }),
    (r) => r.body.recording?.status === 'available',
    'the recording',
    { timeoutMs: 90_000 },
  );
  return body;
}

describe('the live room keeps the act: refusals and a media server restart (issue 60)', function () {
  this.timeout(240_000);
  const browsers = mediaBrowsers();
  after(() => removeTempFiles());

  it('a participant whose camera and microphone are refused is told what to do, and is not admitted', async () => {
    const live = await liveTeamSession();
    assert.equal((await notaryAction(live.notaryToken, live.id, 'start')).status, 200);
    const notary = await notaryInRoom(browsers.granted, live.notaryToken, live.id);
    const signer = await signerPage(browsers.refusing, live.signingUrl);
    try {
      const status = signer.page.locator('.room-status[data-state="blocked"]');
      await status.waitFor({ timeout: 20_000 });
      assert.match((await status.textContent()) ?? '', /camera and microphone are blocked.*allow both/);
      assert.equal(await signer.page.getByRole('button', { name: 'Try again' }).isVisible(), true);
      await assertAccessible(signer.page, 'the room refusing a blocked camera');
      await signer.page.screenshot({ path: path.join(SCREENSHOTS, 'live-room-blocked.png'), fullPage: true });
      await notary.page.locator('.room-status[data-state="live"]').waitFor({ timeout: 20_000 });
      assert.equal((await roomStats(notary.page)).feeds, 0, 'the notary sees nobody else in the room');
      // The page is live before the media server's event reaches the session: complete is judged by the latter.
      const seen = await eventually(
        () => presence(live.account.api_key, live.id),
        (p) => p.notary === true,
        'the session to count the notary on camera',
      );
      assert.equal(seen.signer, false, 'the refused signer is not on camera');
      const refused = await notaryAction(live.notaryToken, live.id, 'complete');
      assert.equal(refused.status, 409);
      assert.equal(
        refused.body.response_message,
        'Session cannot be completed without a recording of the act: a signer must be on camera in the room',
      );
    } finally {
      await signer.context.close();
      await notary.context.close();
    }
  });

  it('the media server crashes mid-act: it is started again, the pages reconnect by themselves, and the recording keeps both segments', async () => {
    const live = await liveTeamSession();
    assert.equal((await notaryAction(live.notaryToken, live.id, 'start')).status, 200);
    const signer = await signerPage(browsers.granted, live.signingUrl);
    const notary = await notaryInRoom(browsers.granted, live.notaryToken, live.id);
    try {
      // Seconds of media each way, so the media server has written every track before it is killed (a loaded
      // machine may otherwise restart it between a track's opening and its first packet on disk).
      await receivingMedia(signer.page, 1, 60_000, RECORDED_FRAMES);
      await receivingMedia(notary.page, 1, 60_000, RECORDED_FRAMES);
      const pidFile = path.join(testEnvironment().dataDir, 'janus', 'janus.pid');
      const crashed = readPid(pidFile)!;
      process.kill(crashed, 'SIGKILL');
      // Nobody restarts it here: `npm start`'s embedded media server is started again by itself.
      await eventually(
        async () => readPid(pidFile),
        (pid) => pid !== undefined && pid !== crashed,
        'the media server started again',
        { timeoutMs: 30_000, intervalMs: 100 },
      );
      // The pages lose the room, then find the next one open by themselves.
      const firstFrames = (await roomStats(signer.page)).framesDecoded;
      await eventually(
        () => request(`${API}/sessions/${live.id}/recording`, { auth: live.account.api_key }),
        (r) => r.body.recording?.segments.length === 2,
        'the second segment',
        { timeoutMs: 60_000 },
      );
      await eventually(
        () => roomStats(signer.page),
        (s) => s.feeds === 1 && s.framesDecoded > 0 && s.framesDecoded !== firstFrames,
        'the signer to see the notary again',
        { timeoutMs: 60_000, intervalMs: 250 },
      );
      await receivingMedia(notary.page, 1, 60_000, RECORDED_FRAMES);
      await eventually(
        () => roomStats(signer.page),
        (s) => s.framesDecoded >= RECORDED_FRAMES,
        'seconds of the second segment on the signer’s page',
        { timeoutMs: 60_000, intervalMs: 250 },
      );
      await completeInSecondSegment(live);
    } finally {
      await signer.context.close();
      await notary.context.close();
    }
    const body = await storedRecording(live);
    const segments = body.recording.segments;
    assert.deepEqual(
      segments.map((s: any) => s.segment),
      [1, 2],
    );
    for (const segment of segments) {
      assert.deepEqual(
        segment.participants.map((p: any) => p.identity),
        ['notary', 'signer-0'],
        JSON.stringify(segment),
      );
      assert.ok(
        segment.tracks.length >= 4,
        `audio and video of both, as the media server recorded them: ${JSON.stringify(segment)}`,
      );
    }
    await recordHistory('session-live-media-server-restart', `session-${live.id}`);
    const events = (
      await request(`${API}/sessions/${live.id}/audit`, { auth: live.account.api_key })
    ).body.records.map((r: any) => r.event);
    assert.ok(events.includes('recording_interrupted'));
    assert.equal(events.filter((e: string) => e === 'recording_started').length, 2);
    // The certificate says what the recording shows: two segments, and the gap between them.
    assert.equal((await notaryAction(live.notaryToken, live.id, 'release_documents')).status, 200);
    await waitForSession(live.account.api_key, live.id, (s) => s.documents_status === 'released', 60_000);
    const [signed] = (await downloadAll(live.account.api_key, live.id)).files;
    const certificate = squash(await pdftotext(signed.bytes));
    assert.match(
      certificate,
      /using audio-video communication, recorded in 2 segments: the media server restarted during the act, and nothing was recorded from \d\d:\d\d:\d\d to \d\d:\d\d:\d\d UTC\./,
    );
    assert.doesNotMatch(certificate, /recorded in full/);
  });

  it('the media server is down mid-act: its segment ends when it was last seen, the next begins when it is back, the pages reconnect to it', async () => {
    const live = await liveTeamSession();
    assert.equal((await notaryAction(live.notaryToken, live.id, 'start')).status, 200);
    const signer = await signerPage(browsers.granted, live.signingUrl);
    const notary = await notaryInRoom(browsers.granted, live.notaryToken, live.id);
    const segments = async () =>
      (await request(`${API}/sessions/${live.id}/recording`, { auth: live.account.api_key })).body.recording
        .segments as Array<{ segment: number; started_at: string; ended_at: string | null }>;
    let [down, back] = [0, 0];
    try {
      await receivingMedia(signer.page, 1, 60_000, RECORDED_FRAMES);
      await receivingMedia(notary.page, 1, 60_000, RECORDED_FRAMES);
      // Every pass the signer's page gets from now on names the lost room, as one given just before the
      // service noticed the restart does: the join lands in the room open then, and the page says which.
      await signer.page.route('**/sign/*/media', async (route) => {
        const response = await route.fetch();
        const pass = await response.json();
        await route.fulfill({ response, json: response.ok() ? { ...pass, segment: 1 } : pass });
      });
      // The notary page's first join after the outage is refused: the page tries again at once.
      const joinRefused = await refuseNextJoin(notary.page);
      const media = testEnvironment().services.media!;
      await media.stop();
      down = Date.now();
      // Unanswered, the service ends the room's segment; the next begins only once the server opens its room.
      const lost = await eventually(segments, (s) => Boolean(s[0].ended_at), 'the first segment ended', {
        timeoutMs: 60_000,
        intervalMs: 250,
      });
      assert.deepEqual(
        lost.map((s) => s.segment),
        [1],
      );
      assert.ok(Date.parse(lost[0].ended_at!) <= down, JSON.stringify(lost));
      back = Date.now();
      await media.restart();
      const reopened = await eventually(segments, (s) => s.length === 2, 'the second segment', {
        timeoutMs: 60_000,
        intervalMs: 250,
      });
      assert.ok(Date.parse(reopened[1].started_at) >= back, JSON.stringify(reopened));
      await joinRefused.refused;
      // Under the page's 10 s connect deadline, which a refused join used to wait out.
      await eventually(
        () => roomStats(notary.page),
        (s) => s.segment === 2 && s.feeds === 1,
        'the notary in the second room after the refused join',
        { timeoutMs: 8_000, intervalMs: 250 },
      );
      await eventually(
        () => roomStats(signer.page),
        (s) => s.segment === 2 && s.feeds === 1 && s.framesDecoded > 0,
        'the signer to see the notary again',
        { timeoutMs: 60_000, intervalMs: 250 },
      );
      await receivingMedia(notary.page, 1, 60_000, RECORDED_FRAMES);
      await completeInSecondSegment(live);
    } finally {
      await signer.context.close();
      await notary.context.close();
    }
    // The evidence, and the certificate made from it, give the gap as it was: from the last moment the room
    // was known to be there until the server was back.
    const body = await storedRecording(live);
    const [first, second] = body.recording.segments;
    assert.ok(
      Date.parse(first.ended_at) <= down && Date.parse(second.started_at) >= back,
      JSON.stringify(body),
    );
  });

  it('a media token opens one session’s room as one person; the proxy passes only a videoroom client’s requests', async () => {
    const live = await liveTeamSession();
    assert.equal((await notaryAction(live.notaryToken, live.id, 'start')).status, 200);
    const pass = await eventually(
      () => request(`/sign/${tokenOf(live.signingUrl)}/media`, { body: {} }),
      (r) => r.status === 200,
      'a room pass',
    );
    assert.equal(pass.body.identity, 'signer-0');
    const token = pass.body.media_token as string;
    const janus = (body: object, at = '') =>
      request(`/media/janus${at}`, { body: { transaction: 't1', ...body } });
    assert.equal((await janus({ janus: 'create' })).status, 401, 'no token');
    assert.equal((await janus({ janus: 'create', token: `${token}x` })).status, 401, 'a forged token');
    assert.equal((await janus({ janus: 'info', token })).status, 403);
    const session = await janus({ janus: 'create', token });
    assert.equal(session.body.janus, 'success', session.text);
    const at = `/${session.body.data.id}`;
    assert.equal((await janus({ janus: 'attach', plugin: 'janus.plugin.echotest', token }, at)).status, 403);
    const handle = await janus({ janus: 'attach', plugin: 'janus.plugin.videoroom', token }, at);
    const onHandle = `${at}/${handle.body.data.id}`;
    for (const request of ['create', 'destroy', 'list', 'kick', 'enable_recording', 'rtp_forward', 'edit']) {
      const refused = await janus(
        { janus: 'message', token, body: { request, room: 'anything', admin_key: 'guess' } },
        onHandle,
      );
      assert.equal(refused.status, 403, request);
    }
    // A join names whatever room and identity it likes: it gets this session's room, as its own person.
    const joined = await janus(
      {
        janus: 'message',
        token,
        body: { request: 'join', ptype: 'publisher', room: 'another', id: 'notary~x', display: 'Notary' },
      },
      onHandle,
    );
    assert.equal(joined.status, 200, joined.text);
    const events = await request(`/media/janus${at}?maxev=5&token=${encodeURIComponent(token)}`);
    const joinedEvent = (Array.isArray(events.body) ? events.body : [events.body]).find(
      (e: any) => e.plugindata?.data?.videoroom === 'joined',
    );
    assert.equal(joinedEvent.plugindata.data.room, `${live.id}.1`);
    assert.match(joinedEvent.plugindata.data.id, /^signer-0~/);
    assert.equal((await request(`/media/janus/not-a-number?token=${token}`)).status, 404);
  });
});
