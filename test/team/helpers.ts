import { startSecondApp } from '../support/secondApp';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { Config } from '../../src/config';
import { testEnvironment } from '../support/environment';
import { request, type ApiResponse } from '../support/http';
import { eventually } from '../support/eventually';

export const TEAM = '/api/integrationsv2/team_members';
export const LOGIN_LINKS = '/api/integrationsv2/login_links';
export const LOGIN_WITH_LINK = '/api/integrationsv2/auth/login_link';
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** ISO 8601 date-time (with a time and a zone). */
export const ISO_DATETIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Spec 4.5: the fields of `user_data` in an invite response. */
export const INVITE_FIELDS = [
  'id',
  'email',
  'name',
  'first_name',
  'last_name',
  'business_role',
  'state',
  'county',
  'commission_number',
  'commission_expires_on',
  'onboarding_status',
  'vendor_user_id',
  'created_at',
  'updated_at',
].sort();

/** Spec 4.6 / 4.7: the fields of a listed or retrieved team member. */
export const MEMBER_FIELDS = [
  'id',
  'email',
  'business_role',
  'onboarding_status',
  'name',
  'state',
  'county',
  'created_at',
  'updated_at',
].sort();

export const FAIL = (message: string) => ({ response: 'Fail', response_message: message });
export const INVALID_ID = {
  response: 'Fail',
  response_message: 'Validation failed',
  errors: [{ param: 'team_member_id', msg: 'INVALID_ID' }],
};

export function uniqueEmail(label = 'member', domain = 'example.com'): string {
  return `${label}-${crypto.randomUUID()}@${domain}`;
}

/** A valid invite body for a new user; override any field. */
export function inviteBody(overrides: Record<string, unknown> = {}): Record<string, any> {
  return {
    email: uniqueEmail(),
    business_role: 'notary',
    first_name: 'Nina',
    last_name: 'Notary',
    ...overrides,
  };
}

/** The four fields automatic onboarding requires of a notary (spec 4.5). */
export const COMMISSION = {
  state: 'TX',
  county: 'Travis',
  commission_number: 'TX-123456',
  commission_expires_on: '2030-06-30',
};

export function invite(vendorKey: string, body: unknown, path = `${TEAM}/invite`): Promise<ApiResponse> {
  return request(path, { auth: vendorKey, body });
}

/** Invites and asserts 201; returns user_data. */
export async function invited(vendorKey: string, overrides: Record<string, unknown> = {}): Promise<any> {
  const body = inviteBody(overrides);
  const res = await invite(vendorKey, body);
  assert.equal(res.status, 201, `invite ${body.email}: ${res.status} ${res.text}`);
  return res.body.user_data;
}

export async function query<T = any>(sql: string, bind: unknown[] = []): Promise<T[]> {
  const [rows] = (await testEnvironment().runtime.sequelize.query(sql, { bind })) as [T[], unknown];
  return rows;
}

/** Asserts a 422 `Validation failed` body whose errors name `param` (exactly, or matching a RegExp). */
export function assertValidationFailed(res: ApiResponse, param: string | RegExp, what = ''): void {
  const context = `${what ? `${what}: ` : ''}got ${res.status} ${res.text.slice(0, 500)}`;
  assert.equal(res.status, 422, `expected 422; ${context}`);
  assert.deepEqual(
    Object.keys(res.body).sort(),
    ['errors', 'response', 'response_message'],
    `body fields; ${context}`,
  );
  assert.equal(res.body.response, 'Fail', context);
  assert.equal(res.body.response_message, 'Validation failed', context);
  assert.ok(Array.isArray(res.body.errors) && res.body.errors.length > 0, `errors array; ${context}`);
  for (const e of res.body.errors) {
    assert.deepEqual(Object.keys(e).sort(), ['msg', 'param'], `each error is {param, msg}; ${context}`);
    assert.equal(typeof e.param, 'string', context);
    assert.ok(typeof e.msg === 'string' && e.msg.length > 0, `msg is a non-empty string; ${context}`);
  }
  const params = res.body.errors.map((e: any) => e.param as string);
  assert.ok(
    params.some((p: string) => (typeof param === 'string' ? p === param : param.test(p))),
    `errors should name ${String(param)}; ${context}`,
  );
}

export function assertFail(res: ApiResponse, status: number, message: string, what = ''): void {
  const context = `${what ? `${what}: ` : ''}got ${res.status} ${res.text.slice(0, 500)}`;
  assert.equal(res.status, status, `expected ${status}; ${context}`);
  assert.deepEqual(res.body, FAIL(message), context);
}

/** A login link for the member with `email`, split into its parts. */
export async function loginLink(vendorKey: string, email: string, baseUrl?: string) {
  const res = baseUrl
    ? await fetchJson(`${baseUrl}${LOGIN_LINKS}`, { auth: vendorKey, body: { email } })
    : await request(LOGIN_LINKS, { auth: vendorKey, body: { email } });
  assert.equal(res.status, 200, `login link for ${email}: ${res.status} ${res.text}`);
  const url = new URL(res.body.login_link);
  const id = url.pathname.split('/').pop()!;
  const key = url.searchParams.get('key')!;
  return { body: res.body, url, id, key };
}

export function loginWithLink(loginLinkId: string, key: string): Promise<ApiResponse> {
  return request(LOGIN_WITH_LINK, { body: { login_link_id: loginLinkId, key } });
}

/** The team member's access token, through a login link (contract §4). */
export async function memberToken(vendorKey: string, email: string): Promise<string> {
  const link = await loginLink(vendorKey, email);
  const res = await loginWithLink(link.id, link.key);
  assert.equal(res.status, 200, `login with link: ${res.status} ${res.text}`);
  return res.body.access_token;
}

/** A JSON request to another server (a second app). */
export async function fetchJson(
  url: string,
  opts: { auth?: string; body?: unknown; method?: string } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = {};
  if (opts.auth) headers.authorization = `Bearer ${opts.auth}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, {
    method: opts.method ?? (opts.body !== undefined ? 'POST' : 'GET'),
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await response.text();
  const parsed = response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
  return { status: response.status, headers: response.headers, body: parsed, text };
}

export async function secondApp(overrides: Partial<Config>): Promise<{ url: string; close: () => void }> {
  return startSecondApp(overrides);
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Decodes a PNG far enough to prove it is one: signature, every chunk's CRC, IHDR, and the IDAT
 * stream inflating to exactly the scanlines IHDR announces (non-interlaced images).
 */
export function decodePng(png: Buffer): {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
} {
  assert.ok(png.subarray(0, 8).equals(PNG_SIGNATURE), 'starts with the PNG signature');
  let offset = 8;
  let ihdr: Buffer | undefined;
  const idat: Buffer[] = [];
  let ended = false;
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    const crc = png.readUInt32BE(offset + 8 + length);
    assert.equal(zlib.crc32(png.subarray(offset + 4, offset + 8 + length)) >>> 0, crc, `CRC of ${type}`);
    if (type === 'IHDR') ihdr = Buffer.from(data);
    if (type === 'IDAT') idat.push(Buffer.from(data));
    offset += 12 + length;
    if (type === 'IEND') {
      ended = true;
      break;
    }
  }
  assert.ok(ihdr, 'has an IHDR chunk');
  assert.ok(ended, 'ends with IEND');
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  const bitDepth = ihdr[8];
  const colorType = ihdr[9];
  const interlace = ihdr[12];
  const channels = ({ 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 } as Record<number, number>)[colorType];
  assert.ok(channels, `known colour type ${colorType}`);
  const pixels = zlib.inflateSync(Buffer.concat(idat));
  if (interlace === 0) {
    assert.equal(pixels.length, height * (1 + Math.ceil((width * channels * bitDepth) / 8)), 'IDAT size');
  }
  return { width, height, bitDepth, colorType };
}

/** The confirmation link of the latest commission e-mail to `email`, as the notary finds it in their inbox. */
export async function commissionConfirmation(email: string): Promise<{ id: string; key: string; url: URL }> {
  const mail = await eventually(
    () =>
      testEnvironment()
        .smtp.messages.filter((m) => m.to === email && m.subject === 'Confirm your notary commission')
        .at(-1),
    (found) => found,
    `the commission confirmation e-mail to ${email}`,
  );
  const url = new URL(/https?:\/\/\S+\/commission_changes\/\S+/.exec(mail!.text)![0]);
  return { id: url.pathname.split('/').pop()!, key: url.searchParams.get('key')!, url };
}

/** The notary confirms the latest commission change asked for them, from their e-mail. */
export async function confirmCommissionFromMail(email: string): Promise<ApiResponse> {
  const { id, key } = await commissionConfirmation(email);
  return request(`/api/integrationsv2/notary/commission_changes/${id}/confirm`, { body: { key } });
}
