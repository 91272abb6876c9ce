import crypto from 'node:crypto';
import http from 'node:http';
import { type CreatedAccount } from '../src/accounts/accounts';
import { type Cluster } from '../faults/cluster';
import { healthWhile, percentile, settledRssMiB } from './measure';
import { API, Row, Client, readySession } from './holesClient';

/** A POST of `body`: its status, and when its answer arrived, from the first byte sent. */
export function postTimed(url: string, body: Buffer): Promise<{ status: number; answeredMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': body.length },
    });
    req.on('response', (res) => {
      const answeredMs = performance.now() - started;
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, answeredMs }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** What the bursts of one route showed: every answer, every /healthz latency, and each burst's RSS growth. */
interface Bursts {
  answers: Array<{ status: number; answeredMs: number }>;
  latencies: number[];
  growths: number[];
}

/** Bursts per route. One burst lasts a few hundred milliseconds, a handful of /healthz samples. */
const BURST_PAIRS = 5;

/**
 * 4: 24 bodies of 14 MiB, 4 at a time, to random signing links and, for reference, to a route that refuses
 * them from their Content-Length (413), with /healthz and the API's RSS watched. One burst's figures move by
 * half from burst to burst on a shared machine, so the two routes take turns (ABBA) over several bursts
 * each, compared pooled.
 */
export async function largeBodies(api: Client, cluster: Cluster): Promise<Row> {
  const body = Buffer.from(JSON.stringify({ id_front: 'A'.repeat(14 * 1024 * 1024 - 100), selfie: 'A' }));
  const burst = async (path: () => string, into?: Bursts) => {
    const before = await settledRssMiB(cluster.api.pid!);
    const answers: Bursts['answers'] = [];
    const { latencies } = await healthWhile(api.base, async () => {
      for (let round = 0; round < 6; round++)
        answers.push(
          ...(await Promise.all(Array.from({ length: 4 }, () => postTimed(`${api.base}${path()}`, body)))),
        );
    });
    const growth = (await settledRssMiB(cluster.api.pid!)) - before;
    into?.answers.push(...answers);
    into?.latencies.push(...latencies);
    into?.growths.push(growth);
  };
  const unknownLink = () => `/sign/${crypto.randomBytes(32).toString('base64url')}/identity/id_check`;
  const refusedFromLength = () => `${API}/auth/refresh`;
  // A first burst of large bodies grows a fresh process once (V8's young generation, malloc's arenas, the
  // database pool), whichever route it goes to: one unmeasured burst each, so the rows compare like with like.
  await burst(unknownLink);
  await burst(refusedFromLength);
  const links: Bursts = { answers: [], latencies: [], growths: [] };
  const reference: Bursts = { answers: [], latencies: [], growths: [] };
  const sides = [
    [unknownLink, links],
    [refusedFromLength, reference],
  ] as const;
  for (let pair = 0; pair < BURST_PAIRS; pair++)
    for (const [path, into] of pair % 2 === 0 ? sides : [...sides].reverse()) await burst(path, into);
  const summary = (b: Bursts) => ({
    statuses: [...new Set(b.answers.map((a) => a.status))],
    answeredMs: percentile(
      b.answers.map((a) => a.answeredMs),
      50,
    ),
    p50: percentile(b.latencies, 50),
    p90: percentile(b.latencies, 90),
    growth: percentile(b.growths, 50),
  });
  const [ours, theirs] = [summary(links), summary(reference)];
  const show = (b: typeof ours) =>
    `${b.statuses.join(',')} answered in ${Math.round(b.answeredMs)} ms (median), /healthz p50 ${Math.round(b.p50)} ms and p90 ${Math.round(b.p90)} ms, RSS ${b.growth >= 0 ? '+' : ''}${Math.round(b.growth)} MiB (median burst)`;
  return {
    hole: '4. 24 bodies of 14 MiB to unknown signing links, 4 at a time',
    before: '400 after 0.5–1.3 s each; /healthz p50 249 ms, max 698 ms; API RSS 530 → 673 MiB',
    after: `over ${BURST_PAIRS} bursts each, links: ${show(ours)}; the 413 of /auth/refresh alike: ${show(theirs)}`,
    // As the routes that refuse a body from its Content-Length: answered before the upload, the event loop
    // free. A link is looked up in PostgreSQL first, a round trip the 413 does not make: twice its time.
    pass:
      ours.statuses.join() === '404' &&
      ours.answeredMs <= Math.max(100, 2 * theirs.answeredMs) &&
      ours.p50 <= Math.max(50, 1.5 * theirs.p50) &&
      ours.p90 <= Math.max(100, 1.5 * theirs.p90) &&
      ours.growth < 32,
  };
}

/** 5: the completion page of a completed session, looked up by its integrator reference 700 times. */
export async function completionLookups(
  api: Client,
  account: CreatedAccount,
  notaryEmail: string,
): Promise<Row> {
  const session = await readySession(api, account, notaryEmail);
  await api.call(`${session.bn_signing_url}/join`, { body: {} });
  for (const step of ['start', 'complete'])
    await api.call(`${API}/sessions/${session.bn_session_id}/${step}`, { auth: account.api_key, body: {} });
  // The participant's own link first: the lookups below spend this client's rate limit.
  const ended = await api.call(session.bn_signing_url);
  let leaked = 0;
  const counts: Record<number, number> = {};
  for (let i = 0; i < 700; i++) {
    const page = await api.call(`/complete?notarization_id=${session.notarization_id}`);
    counts[page.status] = (counts[page.status] ?? 0) + 1;
    if (page.text.includes('refinance-file') || page.text.includes('Probe account')) leaked++;
  }
  return {
    hole: "5. /complete?notarization_id=<a completed session's reference>, 700 lookups",
    before: '700 of 700 showed the account, the document names and the status',
    after: `${leaked} of 700 showed anything of the session; answers ${JSON.stringify(counts)}; the participant's own link: ${ended.status === 410 ? 'signed completion link given' : ended.status}`,
    pass: leaked === 0 && (counts[429] ?? 0) > 0,
  };
}

/** 6: the headers of every page. */
export async function pageHeaders(api: Client, signingUrl: string): Promise<Row> {
  const missing: string[] = [];
  for (const page of [signingUrl, '/complete', '/notary', '/docs', '/auto/x?key=y']) {
    const res = await fetch(`${api.base}${page}`);
    const csp = res.headers.get('content-security-policy') ?? '';
    const wanted: Array<[string, boolean]> = [
      ['CSP', /default-src 'none'/.test(csp) && !/script-src[^;]*unsafe-inline/.test(csp)],
      ['frame-ancestors', csp.includes("frame-ancestors 'none'")],
      ['nosniff', res.headers.get('x-content-type-options') === 'nosniff'],
      ['X-Frame-Options', res.headers.get('x-frame-options') === 'DENY'],
      ['Referrer-Policy', res.headers.get('referrer-policy') === 'no-referrer'],
      ['no-store', page === '/docs' || res.headers.get('cache-control') === 'no-store'],
    ];
    for (const [name, present] of wanted)
      if (!present) missing.push(`${page.split('?')[0].slice(0, 12)} ${name}`);
  }
  return {
    hole: '6. security headers of /sign, /complete, /notary, /docs, /auto',
    before: 'no CSP, X-Frame-Options, nosniff or HSTS; /sign without Referrer-Policy and Cache-Control',
    after: missing.length
      ? `missing: ${missing.join(', ')}`
      : 'all present (HSTS is sent when PUBLIC_BASE_URL is https)',
    pass: missing.length === 0,
  };
}
