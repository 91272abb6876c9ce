/**
 * `npm run probe:abuse`: the hostile inputs of issue 10 against the production shape (PostgreSQL, Temporal,
 * one API and one worker from their production entry points), each measured: the answer and its time, the
 * API's RSS growth, /healthz latency while it runs, and what the service did afterwards. Not part of
 * `npm test` (it takes a few minutes); prints a table and exits 1 when a probe misses its target.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/config';
import { createDatabase } from '../src/db/database';
import { createAccount } from '../src/accounts/accounts';
import { b64, docxBytes, libreOfficeConversions, pdfBytes } from '../test/support/documents';
import {
  inflatingPdf,
  linkedImageDocx,
  listener,
  manyNamesPdf,
  pngHeader,
} from '../test/support/hostileDocuments';
import { productionCluster } from '../faults/cluster';
import { inviteCommissionedNotary } from '../faults/driver';
import {
  NOTARY_RETRY_INTERVAL,
  Row,
  postFrom,
  waitFor,
  networkWait,
  longestCertificate,
} from './abuseSessions';
import { Prober } from './prober';
export const log = (line: string) => process.stderr.write(`[probe] ${line}\n`);
export const MiB = 1024 * 1024;
type Create = (body: string) => Promise<{ status: number; note: string }>;
type SessionBody = (documents: unknown[], extra?: Record<string, unknown>) => string;
/** Hostile documents: a text of newlines, a huge image, a PDF bomb, a DOCX that links out. */
async function documentBombs(prober: Prober, create: Create, session: SessionBody) {
  const newlines = session([{ name: 'n.txt', base64Doc: b64(Buffer.alloc(MiB, '\n')) }]);
  await prober.probe('1 MiB TXT of newlines', [403], () => create(newlines));
  await prober.probe('PNG of 10000×10000 pixels', [403], () =>
    create(session([{ name: 's.png', base64Doc: b64(pngHeader(10_000, 10_000)) }])),
  );
  const bomb = session([{ name: 'b.pdf', base64Doc: b64(inflatingPdf(200 * MiB)) }]);
  await prober.probe('PDF inflating past 128 MB', [403], () => create(bomb));
  const local = await listener();
  await prober.probe(
    'DOCX linking a local URL (SSRF)',
    [200],
    async () => ({
      ...(await create(session([{ name: 'l.docx', base64Doc: b64(linkedImageDocx(`${local.url}/x.png`)) }]))),
      note: `listener saw ${local.requests.length} requests`,
    }),
    30_000,
  );
  const ssrfRow = prober.rows.at(-1)!;
  ssrfRow.pass &&= local.requests.length === 0;
  local.close();
}
/** Documents that cost their work: DOCX conversions beside a small create, PDFs full of names. */
async function heavyDocuments(prober: Prober, create: Create, session: SessionBody) {
  // The small create is sent once LibreOffice runs, and must not wait for the conversions (they have a
  // lane of their own); the DOCX creates are then awaited as a probe of their own.
  const docx = b64(docxBytes());
  const docxCreates = Promise.all(
    Array.from({ length: 10 }, () => create(session([{ name: 'd.docx', base64Doc: docx }]))),
  );
  await waitFor('LibreOffice converting', 30_000, async () => libreOfficeConversions().size || undefined);
  await prober.probe('a small create while ten DOCX creates convert', [200], async () =>
    create(session([{ name: 'p.pdf', base64Doc: b64(await pdfBytes(1)) }])),
  );
  await prober.probe(
    'those ten DOCX creates',
    [200],
    async () => {
      const answers = await docxCreates;
      return { status: Math.max(...answers.map((a) => a.status)), note: answers[0].note };
    },
    60_000,
  );
  // Each leaves ~55 MB of names in its document thread (pdf-lib keeps them): a 512 MB thread that
  // kept serving would refuse the ninth or so as over its memory limit. A thread is replaced once it
  // holds a quarter of its heap, so each may keep up to that much between documents.
  const { documentWork } = loadConfig({});
  await prober.probe(
    'twelve PDFs of 150,000 names of their own, one after another, then a small create',
    [200],
    async () => {
      const answers: number[] = [];
      for (let i = 0; i < 12; i++)
        answers.push(
          (await create(session([{ name: 'n.pdf', base64Doc: b64(manyNamesPdf(150_000)) }]))).status,
        );
      const last = await create(session([{ name: 'p.pdf', base64Doc: b64(await pdfBytes(1)) }]));
      return {
        status: answers.every((status) => status === 200) ? last.status : Math.max(...answers),
        note: answers.join(','),
      };
    },
    120_000,
    64 + documentWork.threads * (documentWork.memoryMb / 4),
  );
  // At the size a PDF's page tree is read on the API's own thread, every byte of it dictionary syntax.
  await prober.probe(
    'ten PDFs of 127 KB of names each, read where they arrive, in parallel',
    [200],
    async () => {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          create(session([{ name: 'n.pdf', base64Doc: b64(manyNamesPdf(5_000, { plain: true })) }])),
        ),
      );
      return { status: Math.max(...answers.map((a) => a.status)), note: answers[0].note };
    },
  );
}
/** Bodies over the routes' limits. */
async function oversizeBodies(prober: Prober, api: string) {
  const big = `{"api_key":"${'a'.repeat(14 * 1000 * 1000)}"}`;
  await prober.probe('three parallel 14 MB bodies to routes without documents', [413], async () => {
    const answers = await Promise.all(
      ['/api/integrationsv2/auth/refresh', '/api/integrationsv2/auth/login_link', '/sign/x/join'].map((p) =>
        fetch(`${api}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big }),
      ),
    );
    return {
      status: Math.max(...answers.map((a) => a.status)),
      note: answers.map((a) => a.status).join(','),
    };
  });
  const huge = Buffer.alloc(70 * MiB, 'a');
  await prober.probe('one 70 MiB body', [413], async () => {
    const r = await fetch(`${api}/api/integrationsv2/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: huge,
    });
    return { status: r.status };
  });
}
/** 10,000 joins on one link; another participant and the notary are not held up. */
async function joinFlood(prober: Prober, api: string, auth: Record<string, string>, session: SessionBody) {
  const created = await fetch(`${api}/api/integrationsv2/sessions`, {
    method: 'POST',
    headers: auth,
    body: session([{ name: 'p.pdf', base64Doc: b64(await pdfBytes(1)) }]),
  }).then(
    (r) => r.json() as Promise<{ bn_session_id: string; signing_urls: Array<{ bn_signing_url: string }> }>,
  );
  const [first, second] = created.signing_urls.map((u) => `${api}${u.bn_signing_url}/join`);
  await prober.probe(
    '10,000 joins on one link',
    [200],
    async () => {
      const counts: Record<number, number> = {};
      let sent = 0;
      await Promise.all(
        Array.from({ length: 50 }, async () => {
          while (sent++ < 10_000) {
            const r = await fetch(first, { method: 'POST' });
            counts[r.status] = (counts[r.status] ?? 0) + 1;
            await r.arrayBuffer();
          }
        }),
      );
      // Another participant, from another address, joins; the notary starts.
      const other = await postFrom(second, '', {}, '127.0.0.2');
      const start = await fetch(`${api}/api/integrationsv2/sessions/${created.bn_session_id}/start`, {
        method: 'POST',
        headers: auth,
        body: '{}',
      });
      // Each join of the flood is let in or told to wait (429); anything else fails the probe.
      const floodAnswered = Object.keys(counts).every((status) => ['200', '429'].includes(status));
      return {
        status: floodAnswered && other.status === 200 && start.status === 200 ? 200 : 500,
        note: `joins ${JSON.stringify(counts)}; other signer ${other.status}; start ${start.status}`,
      };
    },
    60_000,
  );
}
/** An account with its commissioned notary, and the create body the probes send. */
async function probeAccount(api: string, sequelize: ReturnType<typeof createDatabase>) {
  const account = await createAccount(sequelize, { name: 'Probe', autoOnboarding: true, testMode: true });
  const auth = { authorization: `Bearer ${account.api_key}`, 'content-type': 'application/json' };
  const notaryEmail = `notary-${Date.now()}@example.com`;
  await inviteCommissionedNotary(api, account.vendor_api_key, {
    email: notaryEmail,
    firstName: 'Nadia',
    lastName: 'Quill',
    commissionNumber: 'TX-1',
  });
  const session: SessionBody = (documents, extra = {}) =>
    JSON.stringify({
      signing_type: 'ron',
      notarization_timing_type: 'notarize_now',
      session_type: 'gnw',
      session_notary_email: notaryEmail,
      all_signers: [
        { email: 'a@example.com', first_name: 'Ann', last_name: 'Signer', authentication_type: 'skip' },
        { email: 'b@example.com', first_name: 'Bo', last_name: 'Signer', authentication_type: 'skip' },
      ],
      session_documents: documents,
      ...extra,
    });
  const create: Create = (body) =>
    fetch(`${api}/api/integrationsv2/sessions`, { method: 'POST', headers: auth, body }).then(async (r) => ({
      status: r.status,
      note: (await r.text()).slice(0, 90),
    }));
  return { auth, notaryEmail, session, create };
}
function printTable(rows: Row[], dataDir: string) {
  const header =
    '| probe | answer | ms | API RSS growth MiB | /healthz p99 ms | /healthz max ms | result | note |';
  process.stdout.write(`${header}\n| --- | --- | --- | --- | --- | --- | --- | --- |\n`);
  for (const r of rows) {
    process.stdout.write(
      `| ${r.probe} | ${r.answer} | ${r.ms} | ${r.rssGrowthMiB ?? '–'} | ${r.healthP99Ms ?? '–'} | ${r.healthMaxMs ?? '–'} | ${r.pass ? 'PASS' : 'FAIL'} | ${r.note ?? ''} |\n`,
    );
  }
  fs.writeFileSync(path.join(dataDir, 'probe-abuse.json'), JSON.stringify(rows, null, 2));
  log(`report in ${path.join(dataDir, 'probe-abuse.json')}`);
}
async function main() {
  const { cluster, dataDir } = await productionCluster('probe', { NOTARY_RETRY_INTERVAL }, log);
  await cluster.startAll();
  const sequelize = createDatabase(cluster.databaseUrl);
  const api = cluster.apiUrl;
  const prober = new Prober(api, () => cluster.api.pid!);
  try {
    const { auth, notaryEmail, session, create } = await probeAccount(api, sequelize);
    await documentBombs(prober, create, session);
    await heavyDocuments(prober, create, session);
    await oversizeBodies(prober, api);
    await joinFlood(prober, api, auth, session);
    prober.rows.push(prober.healthRow());
    prober.rows.push(await networkWait(cluster, auth, log));
    prober.rows.push(await longestCertificate(api, auth, notaryEmail));
  } finally {
    await sequelize.close();
    await cluster.stopAll();
  }
  printTable(prober.rows, dataDir);
  process.exit(prober.rows.every((r) => r.pass) ? 0 : 1);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
