import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchMediaBrowser } from '../support/browser';
import { addTeamNotary, createTestAccount } from '../support/accounts';
import { onTestServer } from '../support/browser';
import { signerInRoom } from '../../demo/liveAct';
import { eventually } from '../support/eventually';
import { notaryAdopts, notaryIdentifiesSigners, signEverything } from '../support/signing';
import { request, type ApiResponse } from '../support/http';
import { createSession, joinSession, sessionBody, waitForSession } from '../support/sessions';
import { memberToken } from '../team/helpers';

/** A live session of a team notary, ready, its signer joined; the notary has adopted their signature. */
export async function liveTeamSession(overrides: Record<string, unknown> = {}, { adopted = true } = {}) {
  const account = await createTestAccount({ testMode: false });
  const notary = await addTeamNotary(account.account_id);
  const created = await createSession(
    account.api_key,
    await sessionBody({ session_notary_email: notary.email, ...overrides }),
  );
  assert.equal(created.status, 200, created.text);
  const id = created.body.bn_session_id as string;
  await waitForSession(account.api_key, id, (s) => s.status === 'ready');
  const joined = await joinSession(created.body.bn_signing_url);
  assert.equal(joined.status, 200, joined.text);
  const notaryToken = await memberToken(account.vendor_api_key, notary.email);
  if (adopted) await notaryAdopts(notaryToken);
  const signingUrls = (created.body.signing_urls as Array<{ bn_signing_url: string }>).map(
    (u) => u.bn_signing_url,
  );
  return { account, notary, notaryToken, id, signingUrl: created.body.bn_signing_url as string, signingUrls };
}

export function notaryAction(token: string, id: string, name: string, body: object = {}) {
  return request(`/api/integrationsv2/sessions/${id}/${name}`, { auth: token, body });
}

/** Who the session says is on camera (from the media server's events): the notary, and the first signer. */
export async function presence(apiKey: string, id: string) {
  const session = (await request(`/api/integrationsv2/sessions/${id}`, { auth: apiKey })).body;
  return {
    notary: session.notary?.presence?.on_camera as boolean | undefined,
    signer: session.participants[0].presence?.on_camera as boolean | undefined,
  };
}

/** The signer's page, on a phone-sized screen. */
export async function signerPage(
  browser: Browser,
  signingUrl: string,
  base?: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const url = onTestServer(`https://notary.test${signingUrl}`);
  return signerInRoom(browser, base ? `${base}${new URL(url).pathname}` : url);
}

/**
 * The notary console signed in with `token` (as the login-link page leaves it), in the live room of `id`;
 * on the API under test, or on another one at `base`.
 */
export async function notaryInRoom(
  browser: Browser,
  token: string,
  id: string,
  name = 'Nora Notary',
  base?: string,
) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(
    `sessionStorage.setItem('access_token', ${JSON.stringify(token)});` +
      `sessionStorage.setItem('signed_in_as', ${JSON.stringify(`Signed in as ${name} (notary)`)});` +
      `sessionStorage.setItem('signed_in_name', ${JSON.stringify(name)});`,
  );
  const page = await context.newPage();
  await page.goto(base ? `${base}/notary` : onTestServer('https://notary.test/notary'));
  const card = page.locator(`section[data-session-id="${id}"][data-status="in_progress"]`);
  await card.waitFor({ timeout: 20_000 });
  await card.getByRole('button', { name: /^Enter the live room/ }).click();
  return { context, page };
}

/** What the page receives from the others (WebRTC getStats over its subscriptions). */
export function roomStats(page: Page): Promise<RoomStats> {
  return page.evaluate(
    'window.notarizationRoom ? window.notarizationRoom.stats() : { feeds: 0, framesDecoded: 0, audioPacketsReceived: 0, candidateTypes: [] }',
  );
}

/** Waits until the page receives the others' video frames (at least `frames`) and audio packets. */
export function receivingMedia(page: Page, feeds = 1, timeoutMs = 30_000, frames = 1) {
  return eventually(
    () => roomStats(page),
    (s) => s.feeds >= feeds && s.framesDecoded >= frames && s.audioPacketsReceived > 0,
    `the page to receive audio and video from ${feeds} other(s)`,
    { timeoutMs, intervalMs: 250 },
  );
}

/**
 * The page's next join as a publisher answered as the service answers one while no room is open (between
 * a media server restart's two rooms); `refused` settles once it was.
 */
export async function refuseNextJoin(page: Page): Promise<{ refused: Promise<void> }> {
  let refuse = true;
  let settle!: () => void;
  const refused = new Promise<void>((resolve) => (settle = resolve));
  await page.route('**/media/janus/*/*', async (route) => {
    const body = route.request().postDataJSON()?.body;
    if (!refuse || body?.request !== 'join' || body?.ptype !== 'publisher') return route.continue();
    refuse = false;
    await route.fulfill({
      status: 409,
      headers: { 'retry-after': '1' },
      json: { response: 'Fail', response_message: 'The live room is not open' },
    });
    settle();
  });
  return { refused };
}

export interface RoomStats {
  /** The segment whose room the page is connected to (0 before the first). */
  segment: number;
  feeds: number;
  framesDecoded: number;
  audioPacketsReceived: number;
  /** How the page reaches the media server: each connection's local candidate type (`relay`: TURN). */
  candidateTypes: string[];
}

/**
 * A live act completed as it happens for real: every signer and the notary in the room with their (fake)
 * cameras, until each receives the others; then `complete` (retried until the room records them).
 */
export async function completeRecordedAct(
  browser: Browser,
  act: {
    id: string;
    notaryToken: string;
    signingUrl: string;
    complete: () => Promise<ApiResponse>;
    /** The other signers, on camera in their own pages too; each signs through the API. */
    otherSigningUrls?: string[];
  },
): Promise<ApiResponse> {
  const links = [act.signingUrl, ...(act.otherSigningUrls ?? [])];
  await notaryAdopts(act.notaryToken);
  const signers = await Promise.all(links.map((url) => signerPage(browser, url)));
  const notary = await notaryInRoom(browser, act.notaryToken, act.id);
  try {
    for (const { page } of [...signers, notary]) await receivingMedia(page, links.length);
    await notaryIdentifiesSigners(act.notaryToken, act.id, links.length);
    for (const url of links) await signEverything(url);
    return await eventually(act.complete, (r) => r.status === 200, 'the completion of the recorded act');
  } finally {
    for (const { context } of [...signers, notary]) await context.close();
  }
}

/**
 * A suite's two Chromiums with fake devices: one whose pages are granted the camera and microphone, one
 * whose pages are refused them. Launched before its tests, closed after them.
 */
export function mediaBrowsers() {
  const suite = { granted: undefined as unknown as Browser, refusing: undefined as unknown as Browser };
  before(async () => {
    suite.granted = await launchMediaBrowser();
    suite.refusing = await launchMediaBrowser({ granted: false });
  });
  after(async () => {
    await suite.granted?.close();
    await suite.refusing?.close();
  });
  return suite;
}
