import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestAccount } from '../support/accounts';
import { testEnvironment } from '../support/environment';
import { request, type ApiResponse } from '../support/http';
import { action, createSession, tokenOf, waitForSession } from '../support/sessions';
import { establishIdentity, type KnownFacts } from '../support/identity';

export const SESSIONS = '/api/integrationsv2/sessions';
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const ISO_DATETIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;

export const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

export async function query<T = any>(sql: string, bind: unknown[] = []): Promise<T[]> {
  const [rows] = (await testEnvironment().runtime.sequelize.query(sql, { bind })) as [T[], unknown];
  return rows;
}

/** The notary every session of these tests is assigned to: commission data on file, a seal rendered at invite. */
export interface NotaryAccount {
  apiKey: string;
  vendorKey: string;
  accountId: string;
  notaryEmail: string;
  notaryName: string;
  commissionNumber: string;
  commissionExpiresOn: string;
}

export async function notaryAccount({
  state = 'TX',
  county = 'Travis',
  testMode = true,
} = {}): Promise<NotaryAccount> {
  const account = await createTestAccount({ autoOnboarding: true, testMode });
  const suffix = crypto.randomUUID().slice(0, 6);
  const first = 'Nadia';
  const last = `Quill${suffix.replace(/[^a-z]/g, '')}x`;
  const body = {
    email: `notary-${suffix}-${crypto.randomUUID().slice(0, 8)}@example.com`,
    business_role: 'notary',
    first_name: first,
    last_name: last,
    state,
    county,
    commission_number: `${state}-123`,
    commission_expires_on: '2030-01-31',
  };
  const res = await request('/api/integrationsv2/team_members/invite', {
    auth: account.vendor_api_key,
    body,
  });
  assert.equal(res.status, 201, `invite: ${res.status} ${res.text}`);
  return {
    apiKey: account.api_key,
    vendorKey: account.vendor_api_key,
    accountId: account.account_id,
    notaryEmail: body.email,
    notaryName: `${first} ${last}`,
    commissionNumber: body.commission_number,
    commissionExpiresOn: body.commission_expires_on,
  };
}

export function annotation(extra: Record<string, unknown> = {}) {
  return {
    fieldType: 'signature',
    pageNum: 1,
    x: 72,
    y: 500,
    width: 220,
    height: 30,
    role: 'signer',
    participant_index: 0,
    ...extra,
  };
}

export function assertPass(res: ApiResponse, what: string) {
  assert.equal(res.status, 200, `${what}: ${res.status} ${res.text.slice(0, 500)}`);
  assert.equal(res.body.response, 'Pass', `${what}: ${res.text.slice(0, 500)}`);
}

/** Creates a session and waits until its notary is assigned. */
export async function readySession(apiKey: string, body: Record<string, unknown>) {
  const created = await createSession(apiKey, body);
  assertPass(created, 'creating the session');
  await waitForSession(apiKey, created.body.bn_session_id, (s) => s.status === 'ready', 30_000);
  return created.body;
}

/**
 * ready → every signer and invited witness joins and passes the identity check asked of them → start
 * → in_progress.
 */
export async function inProgressSession(apiKey: string, body: Record<string, unknown>) {
  const created = await readySession(apiKey, body);
  const signers = body.all_signers as KnownFacts[];
  const witnesses = ((body.witnesses as any)?.invited_witness_details ?? []) as KnownFacts[];
  const people: Array<[string, KnownFacts]> = [
    ...created.signing_urls.map((s: any) => [s.bn_signing_url, signers[s.signer_index]]),
    ...(created.witnessess_signing_urls ?? []).map((w: any, i: number) => [w.bn_signing_url, witnesses[i]]),
  ];
  for (const [link, facts] of people) {
    const joined = await request(`/sign/${tokenOf(link)}/join`, {
      method: 'POST',
      headers: { accept: 'application/json' },
    });
    assert.equal(joined.status, 200, `join: ${joined.text}`);
    await establishIdentity(link, facts);
  }
  const started = await action(apiKey, created.bn_session_id, 'start');
  assert.equal(started.status, 200, `start: ${started.text}`);
  await waitForSession(apiKey, created.bn_session_id, (s) => s.status === 'in_progress', 30_000);
  return created;
}

/**
 * Runs a session to completion and waits until its documents are `documentsStatus` ('released' by
 * default; 'held' for notary_manual delivery). Returns the create answer and the final session view.
 */
export async function completedSession(
  apiKey: string,
  body: Record<string, unknown>,
  documentsStatus: 'released' | 'held' = 'released',
) {
  const created = await inProgressSession(apiKey, body);
  const completed = await action(apiKey, created.bn_session_id, 'complete');
  assert.equal(completed.status, 200, `complete: ${completed.text}`);
  const session = await waitForSession(
    apiKey,
    created.bn_session_id,
    (s) => s.documents_status === documentsStatus,
    120_000,
  );
  return { created, session, id: created.bn_session_id as string };
}

export function signedDocuments(apiKey: string, id: string, base = ''): Promise<ApiResponse> {
  if (!base) return request(`${SESSIONS}/${id}/documents`, { auth: apiKey });
  return fetch(`${base}${SESSIONS}/${id}/documents`, {
    headers: { authorization: `Bearer ${apiKey}` },
  }).then(async (r) => {
    const text = await r.text();
    return { status: r.status, headers: r.headers, text, body: JSON.parse(text) };
  });
}

/** The path and query of a public download URL, on the API under test. */
export function localUrl(downloadUrl: string): string {
  const url = new URL(downloadUrl);
  return `${testEnvironment().apiUrl}${url.pathname}${url.search}`;
}

export interface Download {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
}

/** Fetches a download URL with no Authorization header. */
export async function download(downloadUrl: string): Promise<Download> {
  const res = await fetch(localUrl(downloadUrl));
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, text: bytes.toString('utf8') };
}

/** Lists the signed documents of a released session and downloads each. */
export async function downloadAll(apiKey: string, id: string) {
  const listed = await signedDocuments(apiKey, id);
  assertPass(listed, 'signed documents');
  const files: Array<{ listed: any; bytes: Buffer }> = [];
  for (const doc of listed.body.documents) {
    const got = await download(doc.download_url);
    assert.equal(got.status, 200, `download ${doc.name}: ${got.status} ${got.text.slice(0, 300)}`);
    files.push({ listed: doc, bytes: got.bytes });
  }
  return { listed: listed.body, files };
}

// ---------------------------------------------------------------------------------------------
// Independent tools (poppler-utils) on files in a temporary directory.

export interface ToolResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runTool(cmd: string, args: string[]): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { maxBuffer: 64 * 1024 * 1024, timeout: 60_000 }, (err, stdout, stderr) => {
      if (err && typeof (err as NodeJS.ErrnoException).code === 'string') {
        reject(err);
        return;
      }
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const tempDirs: string[] = [];

export function tempFile(bytes: Buffer, name = 'document.pdf'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signed-docs-test-'));
  tempDirs.push(dir);
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

export function removeTempFiles(): void {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

export async function pdfsig(bytes: Buffer): Promise<ToolResult> {
  return runTool('pdfsig', [tempFile(bytes)]);
}

/** pdfsig's verdict on a signed file we expect to be valid, with the whole output in the message. */
export async function assertValidSignature(bytes: Buffer, what: string): Promise<string> {
  const result = await pdfsig(bytes);
  const out = result.stdout + result.stderr;
  assert.match(out, /Signature Validation: Signature is Valid\./, `${what}: pdfsig says\n${out}`);
  assert.match(out, /Signature Type: ETSI\.CAdES\.detached/, `${what}: pdfsig says\n${out}`);
  assert.match(out, /Total document signed/, `${what}: pdfsig says\n${out}`);
  return out;
}

export async function pdftotext(bytes: Buffer, first?: number, last?: number): Promise<string> {
  const args: string[] = [];
  if (first !== undefined) args.push('-f', String(first));
  if (last !== undefined) args.push('-l', String(last));
  const result = await runTool('pdftotext', [...args, tempFile(bytes), '-']);
  assert.equal(result.code, 0, `pdftotext: ${result.stderr}`);
  return result.stdout;
}

/** Collapses runs of whitespace so text that wrapped differently still matches. */
export const squash = (text: string) => text.replace(/\s+/g, ' ');

export async function pageCount(bytes: Buffer): Promise<number> {
  const result = await runTool('pdfinfo', [tempFile(bytes)]);
  assert.equal(result.code, 0, `pdfinfo: ${result.stderr}`);
  const match = /^Pages:\s+(\d+)/m.exec(result.stdout);
  assert.ok(match, `pdfinfo output has no page count:\n${result.stdout}`);
  return Number(match[1]);
}

/** `pdfimages -list` rows: the page of every image (soft masks excluded). */
export async function imagePages(bytes: Buffer): Promise<number[]> {
  const result = await runTool('pdfimages', ['-list', tempFile(bytes)]);
  assert.equal(result.code, 0, `pdfimages: ${result.stderr}`);
  return result.stdout
    .split('\n')
    .slice(2)
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols.length > 3 && /^\d+$/.test(cols[0]) && cols[2] !== 'smask')
    .map((cols) => Number(cols[0]));
}

/** The admin CLI as its own process, as an operator runs it. */
export async function adminCli(args: string[]): Promise<ToolResult & { json: any }> {
  const root = path.join(__dirname, '..', '..');
  const result = await new Promise<ToolResult>((resolve, reject) => {
    execFile(
      path.join(root, 'node_modules', '.bin', 'tsx'),
      ['scripts/admin.ts', ...args],
      { cwd: root, env: testEnvironment().processEnv, timeout: 60_000 },
      (err, stdout, stderr) => {
        if (err && typeof (err as NodeJS.ErrnoException).code === 'string') {
          reject(err);
          return;
        }
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
  let json: any = null;
  const text = result.stdout.trim() || result.stderr.trim().split('\n').pop() || '';
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { ...result, json };
}

/** Word boxes from `pdftotext -bbox` of one page: text with xMin/yMin/xMax/yMax measured from the top left. */
export async function wordBoxes(bytes: Buffer, page: number) {
  const result = await runTool('pdftotext', [
    '-bbox',
    '-f',
    String(page),
    '-l',
    String(page),
    tempFile(bytes),
    '-',
  ]);
  assert.equal(result.code, 0, result.stderr);
  const words: Array<{ text: string; xMin: number; yMin: number; xMax: number; yMax: number }> = [];
  const re = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g;
  for (let m = re.exec(result.stdout); m; m = re.exec(result.stdout)) {
    words.push({
      xMin: Number(m[1]),
      yMin: Number(m[2]),
      xMax: Number(m[3]),
      yMax: Number(m[4]),
      text: m[5].replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>'),
    });
  }
  return words;
}

export interface PageBox {
  x: number;
  y: number;
  width: number;
  height: number;
  text?: string;
}

/** Every text run and image pdftohtml (Poppler) finds on a page, in points from the page's top left. */
export async function pageLayout(
  pdf: Buffer,
  page: number,
): Promise<{ texts: PageBox[]; images: PageBox[] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'layout-'));
  const args = ['-xml', '-zoom', '1', '-f', `${page}`, '-l', `${page}`, tempFile(pdf), path.join(dir, 'out')];
  const result = await runTool('pdftohtml', args);
  assert.equal(result.code, 0, result.stderr);
  const xml = fs.readFileSync(path.join(dir, 'out.xml'), 'utf8');
  fs.rmSync(dir, { recursive: true, force: true });
  const box = (m: string[], text?: string): PageBox => ({
    y: Number(m[1]),
    x: Number(m[2]),
    width: Number(m[3]),
    height: Number(m[4]),
    ...(text === undefined ? {} : { text }),
  });
  const at = '<(text|image) top="([\\d.-]+)" left="([\\d.-]+)" width="([\\d.]+)" height="([\\d.]+)"';
  const texts = [...xml.matchAll(new RegExp(`${at}[^>]*>(.*?)</text>`, 'g'))]
    .filter((m) => m[1] === 'text')
    .map((m) => box(m.slice(1), m[6].replace(/<[^>]+>/g, '')));
  const images = [...xml.matchAll(new RegExp(at, 'g'))]
    .filter((m) => m[1] === 'image')
    .map((m) => box(m.slice(1)));
  return { texts, images };
}

/** Whether a drawn box lies inside another (a point of rounding either way). */
export const within = (inner: PageBox, outer: PageBox) =>
  inner.x >= outer.x - 1 &&
  inner.y >= outer.y - 1 &&
  inner.x + inner.width <= outer.x + outer.width + 1 &&
  inner.y + inner.height <= outer.y + outer.height + 1;

/** The images drawn on a page (a mark, a seal, a converted picture). */
export const imagesOn = async (pdf: Buffer, page: number) => (await pageLayout(pdf, page)).images;
