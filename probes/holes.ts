/**
 * `npm run probe:holes`: the holes of issue 58's security review, reproduced against the production shape
 * (PostgreSQL, Temporal, one API and one worker from their production entry points). Each row repeats
 * the attack as the review ran it and passes when the service no longer gives way. Not part of `npm test`
 * (about three minutes); prints a table and exits 1 when a row fails.
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { createDatabase } from '../src/db/database';
import { createAccount, type CreatedAccount } from '../src/accounts/accounts';
import { queryRows } from '../src/db/query';
import { productionCluster, type Cluster } from '../faults/cluster';
import { b64, pdfBytes } from '../test/support/documents';
import { ID_FRONT, SELFIE, photo } from '../test/support/identity';
import type { Sequelize } from 'sequelize';
import { healthWhile, percentile, settledRssMiB } from './measure';

const log = (line: string) => process.stderr.write(`[holes] ${line}\n`);
const run = promisify(execFile);
const API = '/api/integrationsv2';

interface Row {
  hole: string;
  before: string;
  after: string;
  pass: boolean;
}

interface Answer {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

class Client {
  constructor(readonly base: string) {}

  async call(path: string, opts: { auth?: string; body?: unknown; method?: string } = {}): Promise<Answer> {
    const res = await fetch(`${this.base}${path}`, {
      method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'),
      headers: {
        ...(opts.auth ? { authorization: `Bearer ${opts.auth}` } : {}),
        ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      redirect: 'manual',
    });
    const text = await res.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      // a page
    }
    return { status: res.status, body, text, headers: res.headers };
  }
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const notaryInvite = (email: string, commissionNumber: string) => ({
  email,
  business_role: 'notary',
  first_name: 'Nora',
  last_name: 'Genuine',
  state: 'TX',
  county: 'Travis',
  commission_number: commissionNumber,
  commission_expires_on: '2034-05-31',
});

const sessionFor = async (notaryEmail: string, authentication = 'skip') => ({
  signing_type: 'ron',
  notarization_id: `LOAN${crypto.randomInt(1e9)}`,
  notarization_timing_type: 'notarize_now',
  session_type: 'gnw',
  session_notary_email: notaryEmail,
  all_signers: [
    {
      email: `s-${crypto.randomUUID()}@example.com`,
      first_name: 'Sam',
      last_name: 'Signer',
      authentication_type: authentication,
    },
  ],
  session_documents: [{ name: 'refinance-file.pdf', base64Doc: b64(await pdfBytes(1)) }],
});

async function readySession(
  api: Client,
  account: CreatedAccount,
  notaryEmail: string,
  authentication = 'skip',
) {
  const created = await api.call(`${API}/sessions`, {
    auth: account.api_key,
    body: await sessionFor(notaryEmail, authentication),
  });
  if (created.status !== 200) throw new Error(`create: ${created.text}`);
  await until('ready', async () =>
    (await api.call(`${API}/sessions/${created.body.bn_session_id}`, { auth: account.api_key })).body
      .status === 'ready'
      ? true
      : undefined,
  );
  return created.body as { bn_session_id: string; bn_signing_url: string; notarization_id: string };
}

async function memberToken(api: Client, vendorKey: string, email: string): Promise<string> {
  const link = new URL(
    (await api.call(`${API}/login_links`, { auth: vendorKey, body: { email } })).body.login_link,
  );
  const signedIn = await api.call(`${API}/auth/login_link`, {
    body: { login_link_id: link.pathname.split('/').at(-1), key: link.searchParams.get('key') },
  });
  return signedIn.body.access_token;
}

/** 1: vendor B signs in as A's notary through a link B minted, and asks for a forged commission. */
async function forgedCommission(api: Client, sequelize: Sequelize): Promise<Row[]> {
  const a = await createAccount(sequelize, { name: 'Vendor A', autoOnboarding: true });
  const b = await createAccount(sequelize, { name: 'Vendor B' });
  const email = `nora-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const number = `TX-A-${crypto.randomInt(1e6)}`;
  const inA = await api.call(`${API}/team_members/invite`, {
    auth: a.vendor_api_key,
    body: notaryInvite(email, number),
  });
  const earlier = await readySession(api, a, email);
  await api.call(`${API}/team_members/invite`, {
    auth: b.vendor_api_key,
    body: { email, business_role: 'notary', first_name: 'N', last_name: 'N' },
  });
  const token = await memberToken(api, b.vendor_api_key, email);
  const forged = await api.call(`${API}/notary/onboarding`, {
    auth: token,
    body: {
      state: 'CA',
      county: 'Alameda',
      commission_number: 'EVIL-1',
      commission_expires_on: '2039-01-01',
      first_name: 'Mallory',
      last_name: 'Forged',
    },
  });
  const member = await api.call(`${API}/team_members/${inA.body.user_data.id}`, { auth: a.vendor_api_key });
  const seal = await api.call(`${API}/team_members/${inA.body.user_data.id}/seal.svg`, {
    auth: a.vendor_api_key,
  });
  const named = await api.call(`${API}/sessions`, { auth: a.api_key, body: await sessionFor(email) });
  await api.call(`${earlier.bn_signing_url}/join`, { body: {} });
  for (const step of ['start', 'complete'])
    await api.call(`${API}/sessions/${earlier.bn_session_id}/${step}`, { auth: a.api_key, body: {} });
  const certificate = await certificateText(api, a.api_key, earlier.bn_session_id);
  const held =
    forged.status === 202 &&
    member.body.state === 'TX' &&
    !seal.text.includes('EVIL') &&
    named.status === 200 &&
    certificate.includes(number) &&
    !certificate.includes('Mallory');

  // The real notary renews through A's link and confirms from the e-mail in their inbox (the outbox).
  const own = await memberToken(api, a.vendor_api_key, email);
  const renewal = await api.call(`${API}/notary/onboarding`, {
    auth: own,
    body: {
      state: 'TX',
      county: 'Travis',
      commission_number: 'TX-RENEWED',
      commission_expires_on: '2036-01-31',
    },
  });
  const [mail] = await queryRows<{ body: string }>(
    sequelize,
    `SELECT body FROM email_outbox WHERE kind = 'commission_confirmation' AND to_email = $1 ORDER BY created_at DESC LIMIT 1`,
    { bind: [email] },
  );
  const link = new URL(/https?:\/\/\S+\/commission_changes\/\S+/.exec(mail.body)![0]);
  const confirmed = await api.call(
    `${API}/notary/commission_changes/${link.pathname.split('/').pop()}/confirm`,
    {
      body: { key: link.searchParams.get('key') },
    },
  );
  const renewedSeal = await api.call(`${API}/team_members/${inA.body.user_data.id}/seal.svg`, {
    auth: a.vendor_api_key,
  });
  const audit = await queryRows<{ credential: string; proof: string | null; status: string }>(
    sequelize,
    `SELECT credential, proof, status FROM commission_changes c JOIN users u ON u.id = c.user_id
      WHERE lower(u.email) = lower($1) ORDER BY requested_at`,
    { bind: [email] },
  );
  return [
    {
      hole: "1. B's own login link for A's notary, then POST /notary/onboarding with a forged commission",
      before:
        "200: A's member read CA/Alameda, the seal EVIL-…, A's certificate Mallory Forged, A's TX sessions 403",
      after: `${forged.status}; A's member ${member.body.state}/${member.body.county}; seal ${seal.text.includes('EVIL') ? 'forged' : 'genuine'}; new session ${named.status}; certificate ${certificate.includes(number) ? 'genuine' : 'NOT genuine'}`,
      pass: held,
    },
    {
      hole: '1. the real notary renews through a login link and confirms from their e-mail',
      before: 'renewal applied at once (200)',
      after: `${renewal.status}, confirmed ${confirmed.status}; seal ${renewedSeal.text.includes('TX-RENEWED') ? 'renewed' : 'NOT renewed'}; audit ${audit.map((c) => `${c.credential}/${c.proof ?? '–'}/${c.status}`).join(', ')}`,
      pass:
        renewal.status === 202 &&
        confirmed.status === 200 &&
        renewedSeal.text.includes('TX-RENEWED') &&
        audit.some(
          (c) => c.credential === 'login_link' && c.proof === 'email_confirmation' && c.status === 'applied',
        ) &&
        // B's forged request was never applied: the notary's own confirmation superseded it.
        audit.some((c) => c.credential === 'login_link' && c.status === 'superseded'),
    },
  ];
}

async function certificateText(api: Client, apiKey: string, id: string): Promise<string> {
  await until(
    'released',
    async () =>
      (await api.call(`${API}/sessions/${id}`, { auth: apiKey })).body.documents_status === 'released'
        ? true
        : undefined,
    120_000,
  );
  const [document] = (await api.call(`${API}/sessions/${id}/documents`, { auth: apiKey })).body.documents;
  const link = new URL(document.download_url);
  const bytes = Buffer.from(await (await fetch(`${api.base}${link.pathname}${link.search}`)).arrayBuffer());
  const file = path.join(fs.mkdtempSync(path.join(fs.realpathSync('/tmp'), 'holes-')), 'signed.pdf');
  fs.writeFileSync(file, bytes);
  const text = (await run('pdftotext', [file, '-'])).stdout.replace(/\s+/g, ' ');
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  return text;
}

/** 2: 8 and 20 concurrent ID checks (one valid), in 15 bursts each on a fresh signer. */
async function parallelIdChecks(
  api: Client,
  sequelize: Sequelize,
  account: CreatedAccount,
  notaryEmail: string,
) {
  const rows: Row[] = [];
  for (const width of [8, 20]) {
    const scored: number[] = [];
    let beaten = 0;
    for (let burst = 0; burst < 15; burst++) {
      const session = await readySession(api, account, notaryEmail, 'biometrics');
      await api.call(`${session.bn_signing_url}/join`, { body: {} });
      const unreadable = {
        id_front: photo(200, 120, 'ID').toString('base64'),
        selfie: SELFIE.toString('base64'),
      };
      const valid = { id_front: ID_FRONT.toString('base64'), selfie: SELFIE.toString('base64') };
      await Promise.all(
        Array.from({ length: width }, (_, i) =>
          api.call(`${session.bn_signing_url}/identity/id_check`, {
            body: i === width - 1 ? valid : unreadable,
          }),
        ),
      );
      const attempts = await queryRows<{ attempt: number }>(
        sequelize,
        `SELECT attempt FROM identity_checks WHERE session_id = $1 AND method = 'biometrics'`,
        { bind: [session.bn_session_id] },
      );
      scored.push(attempts.length);
      if (attempts.length > 2 || new Set(attempts.map((a) => a.attempt)).size !== attempts.length) beaten++;
    }
    rows.push({
      hole: `2. ${width} concurrent ID checks (${width - 1} unreadable, 1 valid), 15 bursts`,
      before:
        '11 of 15 bursts scored more than 2; attempts duplicated (1,1,1,2,2); the valid one passed after 3–4 failures',
      after: `attempts scored per burst: ${scored.join(',')}; bursts over the limit: ${beaten}`,
      pass: beaten === 0,
    });
  }
  return rows;
}

/** 3: the API's production entry point under NODE_ENV values that are not development or test. */
async function sandboxOutsideDevelopment(cluster: Cluster): Promise<Row> {
  const answers: string[] = [];
  let refused = 0;
  for (const nodeEnv of ['staging', 'prod']) {
    try {
      await run(process.execPath, [path.join(__dirname, '..', 'dist', 'scripts', 'start-api.js')], {
        env: {
          ...process.env,
          NODE_ENV: nodeEnv,
          PORT: '0',
          DATABASE_URL: cluster.databaseUrl,
          TEMPORAL_ADDRESS: cluster.temporalAddress,
          JWT_SECRET: crypto.randomBytes(32).toString('hex'),
          LOG_LEVEL: 'warn',
        },
        timeout: 30_000,
      });
      answers.push(`${nodeEnv}: started`);
    } catch (err) {
      const e = err as { code: number; stderr: string };
      const line = e.stderr.trim().split('\n');
      if (e.code === 1 && line.length === 1 && line[0].includes('ALLOW_SANDBOX_IDENTITY')) refused++;
      answers.push(`${nodeEnv}: exit ${e.code}, "${line.at(-1)?.slice(0, 80)}…"`);
    }
  }
  return {
    hole: '3. the API on the sandbox identity provider under NODE_ENV=staging and NODE_ENV=prod',
    before: 'started (only NODE_ENV=production refused)',
    after: answers.join('; '),
    pass: refused === 2,
  };
}

/** A POST of `body`: its status, and when its answer arrived, from the first byte sent. */
function postTimed(url: string, body: Buffer): Promise<{ status: number; answeredMs: number }> {
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
async function largeBodies(api: Client, cluster: Cluster): Promise<Row> {
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
async function completionLookups(api: Client, account: CreatedAccount, notaryEmail: string): Promise<Row> {
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
async function pageHeaders(api: Client, signingUrl: string): Promise<Row> {
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

async function main() {
  const { cluster, dataDir } = await productionCluster(
    'holes',
    { RATE_LIMIT_PER_CLIENT_PER_MINUTE: '600' },
    log,
  );
  await cluster.startAll();
  const sequelize = createDatabase(cluster.databaseUrl);
  const rows: Row[] = [];
  try {
    const api = new Client(cluster.apiUrl);
    const account = await createAccount(sequelize, { name: 'Probe account', autoOnboarding: true });
    const notaryEmail = `notary-${Date.now()}@example.com`;
    await api.call(`${API}/team_members/invite`, {
      auth: account.vendor_api_key,
      body: notaryInvite(notaryEmail, 'TX-1'),
    });
    log('1: the login-link chain');
    rows.push(...(await forgedCommission(api, sequelize)));
    log('2: parallel ID checks');
    rows.push(...(await parallelIdChecks(api, sequelize, account, notaryEmail)));
    log('3: the sandbox outside development');
    rows.push(await sandboxOutsideDevelopment(cluster));
    log('4: large bodies to unknown links');
    rows.push(await largeBodies(api, cluster));
    const headersOf = await readySession(api, account, notaryEmail);
    log('6: page headers');
    rows.push(await pageHeaders(api, headersOf.bn_signing_url));
    log('5: completion page lookups (last: it spends the per-client rate limit)');
    rows.push(await completionLookups(api, account, notaryEmail));
  } finally {
    await sequelize.close();
    await cluster.stopAll();
  }
  process.stdout.write('| hole | before | after | result |\n| --- | --- | --- | --- |\n');
  for (const r of rows)
    process.stdout.write(`| ${r.hole} | ${r.before} | ${r.after} | ${r.pass ? 'PASS' : 'FAIL'} |\n`);
  fs.writeFileSync(path.join(dataDir, 'probe-holes.json'), JSON.stringify(rows, null, 2));
  process.exit(rows.every((r) => r.pass) ? 0 : 1);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
