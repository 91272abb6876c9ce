/**
 * `npm run probe:room-holes`: issue 67's holes in the live room and the signing, replayed against the
 * production shape (PostgreSQL, Temporal, one API and one worker from their production entry points, and
 * Janus from the compose image's own start script on a 100-port RTP range). Each row repeats the attack as
 * the review ran it and passes when the service no longer gives way. Not part of `npm test` (a few
 * minutes); prints a table and exits 1 when a row fails.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Sequelize } from 'sequelize';
import { createDatabase } from '../src/db/database';
import { productionCluster, type Cluster } from '../faults/cluster';
import { startComposeJanus } from '../production/mediaServer';
import { launchParticipantsBrowser } from '../demo/participantsBrowser';
import type { LiveParty } from '../demo/liveAct';
import { pdfBytes } from '../test/support/documents';
import { healthWhile, percentile } from './measure';
import { postTimed } from './holesRequests';
import { API, Client, accountWithNotary, run, type Row } from './holesClient';
import { foreignConnection, portFlood, slenderPages } from './roomHolesMedia';

const log = (line: string) => process.stderr.write(`[room holes] ${line}\n`);

/** 1: 64 KB of nesting to the signaling proxy and the create route (no credential), 200 KB to the events route. */
async function deepBodies(api: Client): Promise<Row> {
  const nested = (n: number) => Buffer.from(`${'['.repeat(n)}${']'.repeat(n)}`);
  const targets: Array<[string, Buffer]> = [
    ['/media/janus', nested(32_000)],
    [`${API}/sessions`, nested(32_000)],
    ['/internal/media/events', nested(100_000)],
  ];
  const { result, latencies } = await healthWhile(api.base, () =>
    Promise.all(targets.map(([route, body]) => postTimed(`${api.base}${route}`, body))),
  );
  const answers = result.map((a, i) => `${targets[i][0]} ${a.status} in ${Math.round(a.answeredMs)} ms`);
  const p99 = percentile(latencies, 99);
  return {
    hole: '1. nested bodies: 64 KB to /media/janus and /sessions (no credential), 200 KB to /internal/media/events',
    before: '/healthz answered in 7.7 s while one 64 KB body was read; the 200 KB one held the API 142 s',
    after: `${answers.join('; ')}; /healthz p99 ${Math.round(p99)} ms`,
    pass: result.every((a) => a.status >= 400 && a.status < 500 && a.answeredMs < 1_000) && p99 < 250,
  };
}

/** 3: same-device signing, the second signer's own link: consent, adoption, an application. */
async function sameDeviceOther(api: Client, apiKey: string, notaryEmail: string): Promise<Row> {
  const created = await api.call(`${API}/sessions`, {
    auth: apiKey,
    body: {
      ...(await sessionBody(notaryEmail, 2)),
      session_configurations: { same_device_signing_mode: 'all' },
    },
  });
  const [host, other] = (created.body.signing_urls as Array<{ bn_signing_url: string }>).map(
    (u) => u.bn_signing_url,
  );
  await readyThen(api, apiKey, created.body.bn_session_id);
  await api.call(`${host}/join`, { body: {} });
  await api.call(`${API}/sessions/${created.body.bn_session_id}/start`, { auth: apiKey, body: {} });
  const view = await api.call(`${host}/signing`);
  const mark = { method: 'typed', style: 'caveat', text: 'Alex Signer' };
  const answers = [
    (await api.call(`${other}/consent`, { body: { accepted: true } })).status,
    (
      await api.call(`${other}/adopted_signature`, {
        body: { signature: mark, initials: { ...mark, text: 'AS' } },
      })
    ).status,
    (
      await api.call(`${other}/signatures`, {
        body: { document_id: view.body.documents?.[0]?.id, place_id: 'default-signer-1' },
      })
    ).status,
  ];
  return {
    hole: '3. same-device signing ("all"): the second signer’s own link consents, adopts, signs',
    before: '200, 200, 200',
    after: answers.join(', '),
    pass: answers.every((s) => s === 409),
  };
}

async function sessionBody(notaryEmail: string, signers: number) {
  return {
    signing_type: 'ron',
    notarization_id: `HOLES${crypto.randomInt(1e9)}`,
    notarization_timing_type: 'notarize_now',
    session_type: 'gnw',
    session_notary_email: notaryEmail,
    all_signers: Array.from({ length: signers }, (_, i) => ({
      email: `s${i}-${crypto.randomUUID()}@example.com`,
      first_name: ['Sam', 'Alex'][i],
      last_name: 'Signer',
      authentication_type: 'skip',
    })),
    session_documents: [{ name: 'deed.pdf', base64Doc: (await pdfBytes(1)).toString('base64') }],
  };
}

async function readyThen(api: Client, apiKey: string, id: string) {
  for (let i = 0; i < 300; i++) {
    if ((await api.call(`${API}/sessions/${id}`, { auth: apiKey })).body.status === 'ready') return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`session ${id} never ready`);
}

/** 6: the evidence tables, each change tried in a transaction that is rolled back whatever happens. */
async function evidenceChanges(sequelize: Sequelize): Promise<Row> {
  const attempts = [
    'TRUNCATE recordings',
    'TRUNCATE signature_applications',
    `UPDATE recordings SET session_id = (SELECT id FROM sessions s
                                          WHERE NOT EXISTS (SELECT 1 FROM recordings r WHERE r.session_id = s.id) LIMIT 1)`,
    `UPDATE recordings SET segments = '[]', size_bytes = 1, duration_seconds = 1, content_type = 'x/y'`,
  ];
  const outcomes: string[] = [];
  const [count] = (
    await sequelize.query("SELECT count(*)::int AS n FROM recordings WHERE status = 'available'")
  )[0] as Array<{ n: number }>;
  for (const sql of attempts) {
    const outcome = await sequelize
      .transaction(async (t) => {
        await sequelize.query(sql, { transaction: t });
        throw new Error('rolled back');
      })
      .catch((err: Error) => (err.message === 'rolled back' ? 'done' : 'refused'));
    outcomes.push(`${sql.split(' ').slice(0, 4).join(' ')}…: ${outcome}`);
  }
  return {
    hole: `6. TRUNCATE and rewrites of the evidence tables (${count.n} stored recordings; each rolled back after)`,
    before:
      'TRUNCATE worked on both; a stored recording’s session, segments, size, duration, type could change',
    after: outcomes.join('; '),
    pass: outcomes.every((o) => o.includes(': refused')),
  };
}

/** 7: a 48 KB-class 1-bit PNG of 20000 × 20000 pixels through the operator's `set-branding`. */
async function logoBomb(env: NodeJS.ProcessEnv, accountId: string, dir: string): Promise<Row> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(20_000, 0);
  header.writeUInt32BE(20_000, 4);
  header.set([1, 0, 0, 0, 0], 8);
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const framed = Buffer.alloc(body.length + 8);
    framed.writeUInt32BE(data.length, 0);
    body.copy(framed, 4);
    framed.writeUInt32BE(zlib.crc32(body) >>> 0, body.length + 4);
    return framed;
  };
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(2501 * 20_000), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  const file = path.join(dir, 'bomb.png');
  fs.writeFileSync(file, png);
  const admin = path.join(__dirname, '..', 'dist', 'scripts', 'admin.js');
  const outcome = await run(
    process.execPath,
    [admin, 'set-branding', `--account=${accountId}`, `--logo=${file}`],
    {
      env,
    },
  ).then(
    () => 'accepted (exit 0)',
    (err: { code: number; stderr: string }) => `exit ${err.code}: ${err.stderr.trim().split('\n').at(-1)}`,
  );
  return {
    hole: `7. a ${Math.round(png.length / 1024)} KB 1-bit PNG of 20000 × 20000 pixels as an account’s logo`,
    before: 'accepted; each signer page then cost the browser ~2.1 GB and 4 s to paint',
    after: outcome,
    pass: outcome.startsWith('exit 2'),
  };
}

async function liveParty(api: Client, sequelize: Sequelize, name: string): Promise<LiveParty> {
  const { account, notaryEmail } = await accountWithNotary(api, sequelize, { name, testMode: false });
  return { apiUrl: api.base, apiKey: account.api_key, vendorKey: account.vendor_api_key, notaryEmail };
}

async function replay(cluster: Cluster, sequelize: Sequelize, dataDir: string): Promise<Row[]> {
  const api = new Client(cluster.apiUrl);
  const pdf = await pdfBytes(1);
  const [a, b] = [await liveParty(api, sequelize, 'Flooded'), await liveParty(api, sequelize, 'Bystander')];
  const rows: Row[] = [];
  log('1: nested bodies');
  rows.push(await deepBodies(api));
  log('2: the port flood, then another account’s act');
  const browser = await launchParticipantsBrowser();
  try {
    rows.push(await portFlood(browser, api, a, b, pdf));
  } finally {
    await browser.close();
  }
  log('3: same-device signing');
  const { account: testAccount, notaryEmail } = await accountWithNotary(api, sequelize, {
    name: 'Same device',
    testMode: true,
  });
  rows.push(await sameDeviceOther(api, testAccount.api_key, notaryEmail));
  log('4: slender pages');
  rows.push(await slenderPages(api, a, b, pdf));
  log('5: another’s Janus connection');
  rows.push(await foreignConnection(api, a, b, pdf));
  log('6: evidence tables');
  rows.push(await evidenceChanges(sequelize));
  log('7: a logo of 400 million pixels');
  const env = {
    ...process.env,
    DATABASE_URL: cluster.databaseUrl,
    TEMPORAL_ADDRESS: cluster.temporalAddress,
  };
  rows.push(await logoBomb(env, testAccount.account_id, dataDir));
  return rows;
}

async function main() {
  const { cluster, dataDir } = await productionCluster(
    'room-holes',
    { RATE_LIMIT_PER_CLIENT_PER_MINUTE: '100000', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    log,
  );
  const janus = await startComposeJanus(
    path.join(dataDir, 'janus'),
    `${cluster.apiUrl}/internal/media/events`,
    log,
    '30000-30099',
  );
  cluster.configure(janus.settings);
  await cluster.startAll();
  const sequelize = createDatabase(cluster.databaseUrl);
  let rows: Row[] = [];
  try {
    rows = await replay(cluster, sequelize, dataDir);
  } finally {
    await sequelize.close();
    await cluster.stopAll();
    await janus.stop();
  }
  process.stdout.write(
    '| hole | before (the review) | after (this run) | result |\n| --- | --- | --- | --- |\n',
  );
  for (const r of rows)
    process.stdout.write(`| ${r.hole} | ${r.before} | ${r.after} | ${r.pass ? 'PASS' : 'FAIL'} |\n`);
  fs.writeFileSync(path.join(dataDir, 'probe-room-holes.json'), JSON.stringify(rows, null, 2));
  process.exit(rows.every((r) => r.pass) ? 0 : 1);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
