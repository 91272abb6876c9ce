import { adoptInConsole, identifyInConsole, signInPage } from './signingInPage';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/**
 * A live act as people do it, driven from outside: headless Chromium with fake cameras and microphones
 * (a test pattern and a tone) as the signers and the notary, through the API and its pages only.
 * `npm run demo:live`, bench P7 and `npm run verify:production` drive their live sessions with it.
 */
const POLL_MS = 100;

export interface LiveParty {
  apiUrl: string;
  apiKey: string;
  vendorKey: string;
  notaryEmail: string;
}

export interface RoomStats {
  segment: number;
  feeds: number;
  framesDecoded: number;
  audioPacketsReceived: number;
}

export interface Recording {
  recording_id: string;
  status: string;
  sha256: string;
  size_bytes: number;
  duration_seconds: number;
  segments: unknown[];
  download_url: string;
  ended_at: string;
  available_at: string;
  renditions: Rendition[];
}

/** A view made from the recording after it is stored (the composed grid). */
export interface Rendition {
  kind: string;
  status: string;
  sha256: string;
  size_bytes: number;
  duration_seconds: number;
  download_url: string;
  available_at: string;
}

export async function until<T>(
  what: string,
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`${what}: not after ${timeoutMs / 1000} s (last: ${JSON.stringify(value)})`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

export async function api(apiUrl: string, auth: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {}, text };
}

/** The notary's access token, through a login link the vendor mints (spec 4.9), as the console gets it. */
export async function notaryAccessToken(party: LiveParty): Promise<string> {
  const link = await api(party.apiUrl, party.vendorKey, 'POST', '/api/integrationsv2/login_links', {
    email: party.notaryEmail,
  });
  if (link.status !== 200) throw new Error(`login link: ${link.status} ${link.text}`);
  const url = new URL(link.body.login_link);
  const res = await fetch(`${party.apiUrl}/api/integrationsv2/auth/login_link`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login_link_id: url.pathname.split('/').pop(), key: url.searchParams.get('key') }),
  });
  if (res.status !== 200) throw new Error(`login with the link: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** A ready session with the team notary and `signers` signers, each joined: its id and signing links. */
export async function openLiveSession(party: LiveParty, pdf: Buffer, signers: number) {
  const created = await api(party.apiUrl, party.apiKey, 'POST', '/api/integrationsv2/sessions', {
    signing_type: 'ron',
    notarization_id: `LIVE${Date.now()}${Math.floor(Math.random() * 1e6)}`,
    notarization_timing_type: 'notarize_now',
    session_type: 'gnw',
    session_notary_email: party.notaryEmail,
    all_signers: Array.from({ length: signers }, (_, i) => ({
      email: `signer-${i}@example.com`,
      first_name: ['Sam', 'Alex', 'Jo'][i % 3],
      last_name: `Signer${i + 1}`,
      authentication_type: 'skip',
    })),
    session_documents: [{ name: 'deed.pdf', base64Doc: pdf.toString('base64') }],
  });
  if (created.status !== 200) throw new Error(`create: ${created.status} ${created.text}`);
  const id = created.body.bn_session_id as string;
  const links = (created.body.signing_urls as Array<{ bn_signing_url: string }>).map((s) =>
    onApi(party.apiUrl, s.bn_signing_url),
  );
  await until(
    'the session to be ready',
    () => sessionOf(party, id),
    (s) => s.status === 'ready',
    60_000,
  );
  for (const link of links) {
    const token = new URL(link).pathname.split('/').pop();
    const joined = await fetch(`${party.apiUrl}/sign/${token}/join`, { method: 'POST' });
    if (joined.status !== 200) throw new Error(`join: ${joined.status} ${await joined.text()}`);
  }
  return { id, links };
}

/** A link the API made (on FRONT_URL or a white-label base) opened on the API itself. */
function onApi(apiUrl: string, link: string): string {
  const url = new URL(link, apiUrl);
  return `${apiUrl}${url.pathname}${url.search}`;
}

export async function sessionOf(party: LiveParty, id: string) {
  return (await api(party.apiUrl, party.apiKey, 'GET', `/api/integrationsv2/sessions/${id}`)).body;
}

export function notaryAct(party: LiveParty, token: string, id: string, action: 'start' | 'complete') {
  return api(party.apiUrl, token, 'POST', `/api/integrationsv2/sessions/${id}/${action}`, {});
}

/** What the page receives from the others, from WebRTC's getStats over its subscriptions. */
export function roomStats(page: Page): Promise<RoomStats> {
  return page.evaluate(
    'window.notarizationRoom ? window.notarizationRoom.stats() : { segment: 0, feeds: 0, framesDecoded: 0, audioPacketsReceived: 0 }',
  ) as Promise<RoomStats>;
}

/** The signer's page (phone-sized), which enters the room once the notary has started. */
export async function signerInRoom(
  browser: Browser,
  link: string,
  { relayOnly = false } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  // A network that lets nothing through but a TURN relay: every connection the page opens takes only relayed
  // candidates, whatever the room pass says.
  if (relayOnly)
    await context.addInitScript(
      `(() => { const Native = RTCPeerConnection; window.RTCPeerConnection = function (config) { const pc = new Native({ ...(config || {}), iceTransportPolicy: 'relay' }); (window.relayedConnections = window.relayedConnections || []).push(pc); return pc; }; window.RTCPeerConnection.prototype = Native.prototype; })();`,
    );
  const page = await context.newPage();
  await page.goto(link);
  return { context, page };
}

/**
 * The notary console, signed in as the login-link page leaves it, where the notary presses Start on
 * session `id` (and so enters its live room); resolves at the press.
 */
export async function notaryStartsInConsole(browser: Browser, apiUrl: string, token: string, id: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(`sessionStorage.setItem('access_token', ${JSON.stringify(token)});`);
  const page = await context.newPage();
  await page.goto(`${apiUrl}/notary`);
  const start = page
    .locator(`section[data-session-id="${id}"][data-status="ready"]`)
    .getByRole('button', { name: /^Start/ });
  await start.waitFor({ timeout: 30_000 });
  await start.click();
  return { context, page };
}

/**
 * Waits until the page receives video frames and audio packets from `feeds` others, in `segment`'s room or a
 * later one.
 */
export const receiving = (page: Page, feeds: number, timeoutMs = 60_000, segment = 1) =>
  until(
    `the page to receive audio and video from ${feeds} other(s) in segment ${segment}`,
    () => roomStats(page),
    (s) => s.segment >= segment && s.feeds >= feeds && s.framesDecoded > 0 && s.audioPacketsReceived > 0,
    timeoutMs,
  );

export interface LiveAct {
  id: string;
  /** From the notary's start to the first remote video frame decoded on the first signer's page. */
  startToFirstFrameMs: number;
  pages: Array<{ context: BrowserContext; page: Page }>;
  /** The signers sign in their pages, then the act completes (retried until the room has recorded everyone). */
  complete(): Promise<{ actSeconds: number }>;
}

/**
 * One live act up to everyone seeing and hearing everyone: the session opened and joined, the signers'
 * pages in the waiting room, the notary's Start in the console, and everyone in the room.
 */
export async function beginLiveAct(
  browser: Browser,
  party: LiveParty,
  pdf: Buffer,
  signers = 1,
  { firstSignerRelayOnly = false } = {},
): Promise<LiveAct> {
  const notaryToken = await notaryAccessToken(party);
  const { id, links } = await openLiveSession(party, pdf, signers);
  const signerPages = await Promise.all(
    links.map((link, i) => signerInRoom(browser, link, { relayOnly: firstSignerRelayOnly && i === 0 })),
  );
  await Promise.all(
    signerPages.map(({ page }) =>
      page.getByRole('heading', { name: 'Waiting for your notary' }).waitFor({ timeout: 30_000 }),
    ),
  );
  const notary = await notaryStartsInConsole(browser, party.apiUrl, notaryToken, id);
  const startedAt = Date.now();
  const pages = [...signerPages, notary];
  await until(
    'the first video frame on the signer’s page',
    () => roomStats(pages[0].page),
    (s) => s.framesDecoded > 0,
    60_000,
  );
  const startToFirstFrameMs = Date.now() - startedAt;
  await Promise.all(pages.map(({ page }) => receiving(page, signers)));
  return {
    id,
    startToFirstFrameMs,
    pages,
    async complete() {
      try {
        // The signers' part of the act, on camera: the notary confirms who they are (the demo's signers have
        // no identity check), then each consents, adopts a signature and signs every place in their page.
        // The notary signs the act's documents with the signature they adopt in the console.
        await adoptInConsole(notary.page);
        await identifyInConsole(notary.page);
        await Promise.all(signerPages.map(({ page }) => signInPage(page)));
        // A long act outlives the access token the start was made with.
        const token = await notaryAccessToken(party);
        await until(
          'the completion of the recorded act',
          () => notaryAct(party, token, id, 'complete'),
          (r) => r.status === 200,
          60_000,
        );
      } finally {
        await Promise.all(pages.map(({ context }) => context.close()));
      }
      return { actSeconds: (Date.now() - startedAt) / 1000 };
    },
  };
}

/** The act's recording once it is stored (or the reason it could not be made). */
export async function recordingOf(party: LiveParty, id: string, timeoutMs = 180_000): Promise<Recording> {
  const answer = await until(
    'the recording',
    () => api(party.apiUrl, party.apiKey, 'GET', `/api/integrationsv2/sessions/${id}/recording`),
    (r) => ['available', 'failed'].includes(r.body.recording?.status),
    timeoutMs,
  );
  const recording = answer.body.recording as Recording & { failure_reason?: string };
  if (recording.status !== 'available') throw new Error(`the recording failed: ${JSON.stringify(recording)}`);
  return recording;
}

/** The recording's composed grid once it is stored (or the reason it could not be made). */
export async function gridOf(party: LiveParty, id: string, timeoutMs = 600_000): Promise<Rendition> {
  const answer = await until(
    'the composed grid',
    () => api(party.apiUrl, party.apiKey, 'GET', `/api/integrationsv2/sessions/${id}/recording`),
    (r) => ['available', 'failed'].includes(r.body.recording?.renditions?.[0]?.status),
    timeoutMs,
  );
  const grid = (answer.body.recording as Recording).renditions[0];
  if (grid.status !== 'available') throw new Error(`the grid failed: ${JSON.stringify(grid)}`);
  return grid;
}
