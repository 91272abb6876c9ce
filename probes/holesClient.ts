import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Sequelize } from 'sequelize';
import { createAccount, type CreatedAccount } from '../src/accounts/accounts';
import { b64, pdfBytes } from '../test/support/documents';

export const run = promisify(execFile);

export const API = '/api/integrationsv2';

export interface Row {
  hole: string;
  before: string;
  after: string;
  pass: boolean;
}

export interface Answer {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

export class Client {
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

export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export const notaryInvite = (email: string, commissionNumber: string) => ({
  email,
  business_role: 'notary',
  first_name: 'Nora',
  last_name: 'Genuine',
  state: 'TX',
  county: 'Travis',
  commission_number: commissionNumber,
  commission_expires_on: '2034-05-31',
});

/** An account made as an operator would, with a commissioned team notary invited through the API. */
export async function accountWithNotary(
  api: Client,
  sequelize: Sequelize,
  account: { name: string; testMode: boolean },
): Promise<{ account: CreatedAccount; notaryEmail: string }> {
  const created = await createAccount(sequelize, { ...account, autoOnboarding: true });
  const notaryEmail = `notary-${crypto.randomUUID()}@example.com`;
  const invited = await api.call(`${API}/team_members/invite`, {
    auth: created.vendor_api_key,
    body: notaryInvite(notaryEmail, `TX-${crypto.randomInt(1e6)}`),
  });
  if (invited.status !== 201) throw new Error(`invite: ${invited.text}`);
  return { account: created, notaryEmail };
}

export const sessionFor = async (notaryEmail: string, authentication = 'skip') => ({
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

export async function readySession(
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

export async function memberToken(api: Client, vendorKey: string, email: string): Promise<string> {
  const link = new URL(
    (await api.call(`${API}/login_links`, { auth: vendorKey, body: { email } })).body.login_link,
  );
  const signedIn = await api.call(`${API}/auth/login_link`, {
    body: { login_link_id: link.pathname.split('/').at(-1), key: link.searchParams.get('key') },
  });
  return signedIn.body.access_token;
}

export async function certificateText(api: Client, apiKey: string, id: string): Promise<string> {
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
