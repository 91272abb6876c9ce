/** Issue 67's holes in the live room and the page images (2, 4, 5), replayed for `npm run probe:room-holes`. */
import { PDFDocument } from 'pdf-lib';
import type { Browser } from 'playwright-core';
import { beginLiveAct, notaryAccessToken, notaryStartsInConsole, openLiveSession } from '../demo/liveAct';
import type { LiveParty } from '../demo/liveAct';
import { healthWhile, percentile } from './measure';
import { Client, type Row, until } from './holesClient';

const TRANSACTION = { transaction: 'probe' };

/** Janus's HTTP API through the signaling proxy with one media token, as a script (not janus.js) speaks it. */
export function janusThrough(api: Client, token: string) {
  const post = (body: object, at = '') =>
    api.call(`/media/janus${at}`, { body: { ...TRANSACTION, token, ...body } });
  return {
    post,
    poll: (session: string) => api.call(`/media/janus/${session}?maxev=5&token=${encodeURIComponent(token)}`),
    async connect(): Promise<string> {
      const created = await post({ janus: 'create' });
      if (created.body?.janus !== 'success') throw new Error(`create: ${created.status} ${created.text}`);
      return String(created.body.data.id);
    },
    attach: (session: string) => post({ janus: 'attach', plugin: 'janus.plugin.videoroom' }, `/${session}`),
  };
}

/** A signer's media token once the notary has started: `link` is the page's full URL on the API. */
export async function mediaTokenOf(api: Client, link: string): Promise<string> {
  const token = new URL(link).pathname.split('/').pop();
  const pass = await until('a room pass', async () => {
    const res = await api.call(`/sign/${token}/media`, { body: {} });
    return res.status === 200 ? (res.body.media_token as string) : undefined;
  });
  return pass;
}

/** The notary's feed id, from the events of a connection that joined the room as a publisher. */
async function notaryFeed(janus: ReturnType<typeof janusThrough>, session: string): Promise<string> {
  const publisher = await janus.attach(session);
  await janus.post(
    { janus: 'message', body: { request: 'join', ptype: 'publisher' } },
    `/${session}/${publisher.body.data.id}`,
  );
  return until('the notary’s feed', async () => {
    const events = await janus.poll(session);
    const list = Array.isArray(events.body) ? events.body : [events.body];
    const publishers = list.flatMap((e: any) => e?.plugindata?.data?.publishers ?? []);
    return publishers.find((p: any) => String(p.id).startsWith('notary~'))?.id as string | undefined;
  });
}

/**
 * 2: one signer of session A asks for 100 subscriptions to the notary's feed (A's notary in the room in a
 * browser), keeping them alive; then another account's whole act: everyone's media, the signing, complete.
 */
export async function portFlood(
  browser: Browser,
  api: Client,
  flooded: LiveParty,
  other: LiveParty,
  pdf: Buffer,
) {
  const notaryToken = await notaryAccessToken(flooded);
  const { id, links } = await openLiveSession(flooded, pdf, 1);
  const notary = await notaryStartsInConsole(browser, flooded.apiUrl, notaryToken, id);
  const janus = janusThrough(api, await mediaTokenOf(api, links[0]));
  const session = await janus.connect();
  const feed = await notaryFeed(janus, session);
  const statuses: number[] = [];
  for (let i = 0; i < 100; i++) {
    const handle = await janus.attach(session);
    statuses.push(handle.status);
    if (handle.status !== 200) continue;
    await janus.post(
      { janus: 'message', body: { request: 'join', ptype: 'subscriber', streams: [{ feed }] } },
      `/${session}/${handle.body.data.id}`,
    );
  }
  const keepAlive = setInterval(() => void janus.post({ janus: 'keepalive' }, `/${session}`), 15_000);
  let outcome: string;
  let pass = false;
  try {
    const act = await beginLiveAct(browser, other, pdf, 1);
    const done = await act.complete();
    outcome = `first frame ${(act.startToFirstFrameMs / 1000).toFixed(1)} s after start; completed after ${done.actSeconds.toFixed(0)} s`;
    pass = true;
  } catch (err) {
    outcome = `failed: ${(err as Error).message.slice(0, 120)}`;
  } finally {
    clearInterval(keepAlive);
    await notary.context.close();
  }
  const accepted = statuses.filter((s) => s === 200).length;
  return {
    hole: '2. one signer asks for 100 subscriptions (100 RTP ports), then another account’s live act',
    before: '~91 joins took the 100-port range; the other room stayed "reconnecting" 90 s, complete 409',
    after: `${accepted} of 100 attaches taken (the rest ${[...new Set(statuses.filter((s) => s !== 200))].join(',') || '—'}); other act: ${outcome}`,
    pass: pass && accepted <= 10,
  };
}

/** 5: session B's signer token against session A's Janus connection: poll, leave, detach, destroy. */
export async function foreignConnection(api: Client, a: LiveParty, b: LiveParty, pdf: Buffer): Promise<Row> {
  const tokens: string[] = [];
  for (const party of [a, b]) {
    const { id, links } = await openLiveSession(party, pdf, 1);
    const start = await api.call(`/api/integrationsv2/sessions/${id}/start`, {
      auth: party.apiKey,
      body: {},
    });
    if (start.status !== 200) throw new Error(`start: ${start.text}`);
    tokens.push(await mediaTokenOf(api, links[0]));
  }
  const mine = janusThrough(api, tokens[0]);
  const theirs = janusThrough(api, tokens[1]);
  const session = await mine.connect();
  const handle = (await mine.attach(session)).body.data.id;
  const at = `/${session}/${handle}`;
  const answers = [
    (await theirs.poll(session)).status,
    (await theirs.post({ janus: 'message', body: { request: 'leave' } }, at)).status,
    (await theirs.post({ janus: 'detach' }, at)).status,
    (await theirs.post({ janus: 'destroy' }, `/${session}`)).status,
  ];
  return {
    hole: '5. another account’s media token on a Janus session’s ids: poll, leave, detach, destroy',
    before: 'each passed to Janus (200): another’s connection could be read and ended',
    after: `answered ${answers.join(', ')}`,
    pass: answers.every((s) => s === 404),
  };
}

/** A PDF of `pages` pages 4 pt wide and 1400 pt tall: 350 000 px tall at the pages' 1000 px width. */
async function slenderPdf(pages: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  for (let i = 0; i < pages; i++) pdf.addPage([4, 1400]);
  return Buffer.from(await pdf.save());
}

/** 4: account A's slender pages, 8 at a time from its signer's link, while B's signer loads an ordinary page. */
export async function slenderPages(api: Client, a: LiveParty, b: LiveParty, pdf: Buffer): Promise<Row> {
  const pageOf = async (party: LiveParty, document: Buffer) => {
    const { links } = await openLiveSession(party, document, 1);
    const token = new URL(links[0]).pathname.split('/').pop();
    const view = await api.call(`/sign/${token}/signing`);
    return (n: number) => `/sign/${token}/documents/${view.body.documents[0].id}/pages/${n}`;
  };
  const hostile = await pageOf(a, await slenderPdf(16));
  const ordinary = await pageOf(b, pdf);
  const timed = async (path: string) => {
    const t = performance.now();
    const res = await fetch(`${api.base}${path}`);
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - t };
  };
  const { result, latencies } = await healthWhile(api.base, async () => {
    const flood = Promise.all(Array.from({ length: 16 }, (_, i) => timed(hostile(i + 1))));
    const other = await timed(ordinary(1));
    return { other, hostile: await flood };
  });
  const hostileMs = percentile(
    result.hostile.map((h) => h.ms),
    50,
  );
  return {
    hole: '4. 16 pages 4 × 1400 pt from account A’s link at once, and one ordinary page of account B',
    before: 'each render ~1.35 GB for the full 20 s; B’s page 0.09 s → 18.6 s',
    after:
      `A: ${[...new Set(result.hostile.map((h) => h.status))].join(',')} in ${(hostileMs / 1000).toFixed(2)} s (median); ` +
      `B: ${result.other.status} in ${(result.other.ms / 1000).toFixed(2)} s; /healthz p99 ${Math.round(percentile(latencies, 99))} ms`,
    pass: result.other.status === 200 && result.other.ms < 2_000 && hostileMs < 5_000,
  };
}
