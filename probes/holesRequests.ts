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

/**
 * 4: 24 bodies of 14 MiB, 4 at a time, to random signing links and, for reference, to a route that refuses
 * them from their Content-Length (413), with /healthz and the API's RSS watched.
 */
export async function largeBodies(api: Client, cluster: Cluster): Promise<Row> {
  const body = Buffer.from(JSON.stringify({ id_front: 'A'.repeat(14 * 1024 * 1024 - 100), selfie: 'A' }));
  const burst = async (path: () => string) => {
    const before = await settledRssMiB(cluster.api.pid!);
    const answers: Array<{ status: number; answeredMs: number }> = [];
    const { latencies } = await healthWhile(api.base, async () => {
      for (let round = 0; round < 6; round++)
        answers.push(
          ...(await Promise.all(Array.from({ length: 4 }, () => postTimed(`${api.base}${path()}`, body)))),
        );
    });
    return {
      statuses: [...new Set(answers.map((a) => a.status))],
      answeredMs: percentile(
        answers.map((a) => a.answeredMs),
        50,
      ),
      p99: percentile(latencies, 99),
      growth: (await settledRssMiB(cluster.api.pid!)) - before,
    };
  };
  const links = await burst(() => `/sign/${crypto.randomBytes(32).toString('base64url')}/identity/id_check`);
  const reference = await burst(() => `${API}/auth/refresh`);
  const show = (b: typeof links) =>
    `${b.statuses.join(',')} answered in ${Math.round(b.answeredMs)} ms (median), /healthz p99 ${Math.round(b.p99)} ms, RSS ${b.growth >= 0 ? '+' : ''}${Math.round(b.growth)} MiB`;
  return {
    hole: '4. 24 bodies of 14 MiB to unknown signing links, 4 at a time',
    before: '400 after 0.5–1.3 s each; /healthz p50 249 ms, max 698 ms; API RSS 530 → 673 MiB',
    after: `links: ${show(links)}; the 413 of /auth/refresh alike: ${show(reference)}`,
    // As the routes that refuse a body from its Content-Length: answered before the upload, the event loop free.
    pass:
      links.statuses.join() === '404' &&
      links.answeredMs <= Math.max(50, 1.5 * reference.answeredMs) &&
      links.p99 <= Math.max(100, 1.5 * reference.p99) &&
      links.growth < 32,
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
