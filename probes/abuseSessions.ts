import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { b64, pdfBytes } from '../test/support/documents';
import { MAX_INVITED_WITNESSES, MAX_SIGNERS } from '../core/vocabulary';
import type { Cluster } from '../faults/cluster';

export const run = promisify(execFile);

/** How often an on-demand session asks the network again here: 300 times the production pace. */
export const NOTARY_RETRY_INTERVAL = '100ms';

/** The events of one run the workflow allows itself before it continues as new (workflows/session.ts). */
export const RUN_HISTORY_BOUND = 10_200;

export interface Row {
  probe: string;
  answer: string;
  ms: number;
  /** Measured for the hostile inputs; not for the minutes-long workflow probes. */
  rssGrowthMiB?: number;
  healthP99Ms?: number;
  healthMaxMs?: number;
  pass: boolean;
  note?: string;
}

/** A POST from a given local address (127.0.0.x), as another client would send it. */
export function postFrom(
  url: string,
  body: string,
  headers: Record<string, string>,
  localAddress = '127.0.0.1',
) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const u = new URL(url);
    const req = http.request(
      { host: u.hostname, port: u.port, path: u.pathname, method: 'POST', localAddress, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The fields of the API's answers these probes read. */
export interface Json {
  bn_session_id: string;
  bn_signing_url: string;
  witnessess_signing_urls: Array<{ bn_signing_url: string }>;
  status: string;
  documents_status: string;
  documents: Array<{ download_url: string }>;
  sessions: Array<{ bn_session_id: string; relation: string }>;
}

export const ADMIN_CLI = path.join(__dirname, '..', 'dist', 'scripts', 'admin.js');

export const JSON_BODY = { 'content-type': 'application/json' };

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitFor<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await pause(200);
  }
}

export async function apiJson(
  url: string,
  auth: Record<string, string>,
  method = 'GET',
  body?: unknown,
): Promise<Json> {
  const r = await fetch(url, {
    method,
    headers: auth,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${url}: ${r.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Json;
}

/** Lengths of every run of a workflow, newest first, following each run back to the one it continued. */
export async function runLengths(client: Client, workflowId: string): Promise<number[]> {
  const lengths: number[] = [];
  for (
    let runId: string | undefined = (await client.workflow.getHandle(workflowId).describe()).runId;
    runId;
  ) {
    const { events } = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    lengths.push(events!.length);
    runId = events![0].workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
  }
  return lengths;
}

/** A network notary added and signed in by the admin CLI's login link, as an operator and the console do. */
async function networkNotaryInTexas(cluster: Cluster): Promise<Record<string, string>> {
  const env = { ...process.env, DATABASE_URL: cluster.databaseUrl };
  await run(
    process.execPath,
    [
      ADMIN_CLI,
      'add-network-notary',
      '--email=network-tx@example.com',
      '--first-name=Tex',
      '--last-name=Network',
      '--state=TX',
      '--commission-number=TX-NET-1',
      '--commission-expires-on=2031-01-31',
    ],
    { env },
  );
  const { stdout } = await run(
    process.execPath,
    [ADMIN_CLI, 'network-login-link', '--email=network-tx@example.com'],
    {
      env,
    },
  );
  const link = new URL((JSON.parse(stdout) as { login_link: string }).login_link);
  const signedIn = (await apiJson(`${cluster.apiUrl}/api/integrationsv2/auth/login_link`, JSON_BODY, 'POST', {
    login_link_id: link.pathname.split('/').at(-1),
    key: link.searchParams.get('key'),
  })) as unknown as { access_token: string };
  return { authorization: `Bearer ${signedIn.access_token}`, 'content-type': 'application/json' };
}

/**
 * An on-demand session whose signer waits while the network has no notary, asked again every 100 ms:
 * before the fix it grew ~11 events a retry until Temporal terminated it. The probe waits until the
 * workflow has continued as new, checks every run stays bounded, then a notary joins the network
 * and the session, with the signer who joined in the first run, starts and completes.
 */
export async function networkWait(
  cluster: Cluster,
  auth: Record<string, string>,
  log: (l: string) => void,
): Promise<Row> {
  const api = cluster.apiUrl;
  const started = performance.now();
  const created = await apiJson(`${api}/api/integrationsv2/sessions`, auth, 'POST', {
    signing_type: 'ron',
    notarization_timing_type: 'notarize_now',
    session_type: 'gnw',
    state_specific_notary: 'TX',
    all_signers: [
      { email: 'wait@example.com', first_name: 'Wren', last_name: 'Waiting', authentication_type: 'skip' },
    ],
    session_documents: [{ name: 'p.pdf', base64Doc: b64(await pdfBytes(1)) }],
  });
  const sessionUrl = `${api}/api/integrationsv2/sessions/${created.bn_session_id}`;
  // From an address of its own: the 10,000 joins spent the probe's own address's allowance.
  const joined = await postFrom(`${api}${created.bn_signing_url}/join`, '', {}, '127.0.0.3');
  if (joined.status !== 200) throw new Error(`join: ${joined.status}`);
  const connection = await Connection.connect({ address: cluster.temporalAddress });
  try {
    const client = new Client({ connection });
    const workflowId = `session-${created.bn_session_id}`;
    // ~12 events a second on the dev server; the server suggests continuing as new near 4,000 events.
    log('network wait: waiting for the session to continue as new (a few minutes)');
    const lengths = await waitFor('a continuation', 30 * 60_000, async () => {
      const l = await runLengths(client, workflowId);
      return l.length >= 2 ? l : undefined;
    });
    const notary = await networkNotaryInTexas(cluster);
    await waitFor('the offer', 30_000, async () =>
      (await apiJson(`${api}/api/integrationsv2/me/sessions`, notary)).sessions.some(
        (s) => s.bn_session_id === created.bn_session_id && s.relation === 'offered',
      )
        ? true
        : undefined,
    );
    await apiJson(
      `${api}/api/integrationsv2/me/sessions/${created.bn_session_id}/accept`,
      notary,
      'POST',
      {},
    );
    await apiJson(`${sessionUrl}/start`, notary, 'POST', {});
    await apiJson(`${sessionUrl}/complete`, notary, 'POST', {});
    const final = await waitFor('completion', 60_000, async () => {
      const s = await apiJson(sessionUrl, auth);
      return s.documents_status === 'released' ? s : undefined;
    });
    const longest = Math.max(...lengths);
    return {
      probe: `on-demand session waiting for a network notary, asked every ${NOTARY_RETRY_INTERVAL}`,
      answer: final.status,
      ms: Math.round(performance.now() - started),
      pass: final.status === 'completed' && longest <= RUN_HISTORY_BOUND,
      note: `${lengths.length} runs of ${[...lengths].reverse().join(', ')} events (bound ${RUN_HISTORY_BOUND}); the signer who joined in the first run was still there`,
    };
  } finally {
    await connection.close();
  }
}

/**
 * The largest session the API accepts, every name at its longest: the certificate must carry every
 * signer and witness, the commission and the document hash, on continuation pages if need be.
 */
export async function longestCertificate(
  api: string,
  auth: Record<string, string>,
  notaryEmail: string,
): Promise<Row> {
  const started = performance.now();
  const longest = (i: number, role: string) => ({
    first: `${role}${i} ${'Maximiliana '.repeat(7)}`.slice(0, 100).trim(),
    last: `Vandenberghe-Oyelaran${i}`.padEnd(50, 'x'),
  });
  const signers = Array.from({ length: MAX_SIGNERS }, (_, i) => longest(i, 'Signer'));
  const witnesses = Array.from({ length: MAX_INVITED_WITNESSES }, (_, i) => longest(i, 'Witness'));
  const original = await pdfBytes(1);
  const created = await apiJson(`${api}/api/integrationsv2/sessions`, auth, 'POST', {
    signing_type: 'ron',
    notarization_timing_type: 'notarize_now',
    session_type: 'gnw',
    session_notary_email: notaryEmail,
    all_signers: signers.map((n, i) => ({
      email: `s${i}@example.com`,
      first_name: n.first,
      last_name: n.last,
      authentication_type: 'skip',
    })),
    witnesses: {
      invited_witness_details: witnesses.map((n, i) => ({
        email: `w${i}@example.com`,
        firstname: n.first,
        lastname: n.last,
      })),
    },
    session_documents: [{ name: 'contract.pdf', base64Doc: b64(original) }],
  });
  const sessionUrl = `${api}/api/integrationsv2/sessions/${created.bn_session_id}`;
  await waitFor('ready', 30_000, async () =>
    (await apiJson(sessionUrl, auth)).status === 'ready' ? true : undefined,
  );
  // The signer and every witness: the notary starts only once the witnesses are in.
  for (const link of [
    created.bn_signing_url,
    ...created.witnessess_signing_urls.map((w) => w.bn_signing_url),
  ])
    await postFrom(`${api}${link}/join`, '', {}, '127.0.0.4');
  await apiJson(`${sessionUrl}/start`, auth, 'POST', {});
  await apiJson(`${sessionUrl}/complete`, auth, 'POST', {});
  await waitFor('released', 60_000, async () =>
    (await apiJson(sessionUrl, auth)).documents_status === 'released' ? true : undefined,
  );
  const [document] = (await apiJson(`${sessionUrl}/documents`, auth)).documents;
  const link = new URL(document.download_url);
  const pdf = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'probe-certificate-')), 'signed.pdf');
  fs.writeFileSync(
    pdf,
    Buffer.from(await (await fetch(`${api}${link.pathname}${link.search}`)).arrayBuffer()),
  );
  const pages = Number(/Pages:\s+(\d+)/.exec((await run('pdfinfo', [pdf])).stdout)![1]);
  const text = (await run('pdftotext', ['-f', '2', pdf, '-'])).stdout.replace(/\s+/g, ' ');
  fs.rmSync(path.dirname(pdf), { recursive: true, force: true });
  const expected = [
    ...[...signers, ...witnesses].map((n) => `${n.first} ${n.last}`),
    'Commission number: TX-1',
    crypto.createHash('sha256').update(original).digest('hex'),
    'This document is digitally signed',
  ];
  const missing = expected.filter((e) => !text.includes(e));
  return {
    probe: `certificate of a session with ${MAX_SIGNERS} signers and ${MAX_INVITED_WITNESSES} witnesses, longest names`,
    answer: `${pages} pages`,
    ms: Math.round(performance.now() - started),
    pass: missing.length === 0 && pages >= 3,
    note: missing.length
      ? `missing: ${missing.join('; ').slice(0, 200)}`
      : `all ${expected.length} lines found by pdftotext on pages 2–${pages}`,
  };
}
