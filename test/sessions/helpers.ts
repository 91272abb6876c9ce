import assert from 'node:assert/strict';
import { addTeamNotary, createTestAccount, type TestAccountOptions } from '../support/accounts';
import { testEnvironment } from '../support/environment';
import { request, type ApiResponse } from '../support/http';
import { action, createSession, sessionBody, tokenOf, waitForSession } from '../support/sessions';

export const SESSIONS = '/api/integrationsv2/sessions';
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Spec 7.1: the exact failure body of a create (and of an add-documents) failure. */
export function failBody(message: string) {
  return {
    response: 'Fail',
    response_message: message,
    notarization_id: '',
    bn_session_id: '',
    bn_signing_url: '',
  };
}

/**
 * Asserts a 403 with the 7.1 body. A string must be the exact response_message; a RegExp must match it
 * (field rules: the message names the field).
 */
export function assertCreateFailure(res: ApiResponse, message: string | RegExp, what = ''): void {
  const context = `${what ? `${what}: ` : ''}got ${res.status} ${res.text.slice(0, 500)}`;
  assert.equal(res.status, 403, `expected HTTP 403 (spec 7.1); ${context}`);
  assert.ok(res.body && typeof res.body === 'object', `expected a JSON body; ${context}`);
  if (typeof message === 'string') {
    assert.deepEqual(res.body, failBody(message), `expected the 7.1 body with '${message}'; ${context}`);
  } else {
    assert.deepEqual(
      { ...res.body, response_message: '<checked below>' },
      { ...failBody(''), response_message: '<checked below>' },
      `expected exactly the 7.1 body fields; ${context}`,
    );
    assert.match(res.body.response_message, message, `response_message should name the field; ${context}`);
  }
}

export function assertPass(res: ApiResponse, what = ''): void {
  assert.equal(
    res.status,
    200,
    `${what ? `${what}: ` : ''}expected 200 Pass, got ${res.status} ${res.text.slice(0, 500)}`,
  );
  assert.equal(res.body.response, 'Pass');
}

/** A fresh account with one linked team notary, so sessions get a notary at once and deterministically. */
export async function teamAccount(opts: TestAccountOptions = {}) {
  const account = await createTestAccount(opts);
  const notary = await addTeamNotary(account.account_id);
  return { account, apiKey: account.api_key, notaryEmail: notary.email, notary };
}

/** A valid create body with the account's team notary; override any field. */
export async function teamBody(notaryEmail: string, overrides: Record<string, unknown> = {}) {
  return sessionBody({ session_notary_email: notaryEmail, ...overrides });
}

export async function query<T = any>(sql: string, bind: unknown[] = []): Promise<T[]> {
  const [rows] = (await testEnvironment().runtime.sequelize.query(sql, { bind })) as [T[], unknown];
  return rows;
}

export function isoIn(ms: number): string {
  return new Date(Date.now() + ms).toISOString();
}

export const DAY = 24 * 60 * 60 * 1000;

export function join(token: string): Promise<ApiResponse> {
  return request(`/sign/${token}/join`, { method: 'POST', headers: { accept: 'application/json' } });
}

export function signingView(token: string): Promise<ApiResponse> {
  return request(`/sign/${token}`, { headers: { accept: 'application/json' } });
}

/** Creates a session with a team notary and waits until it is `ready` (notary assigned). */
export async function readySession(apiKey: string, body: Record<string, unknown>) {
  const res = await createSession(apiKey, body);
  assertPass(res, 'creating the session');
  await waitForSession(apiKey, res.body.bn_session_id, (s) => s.status === 'ready');
  return res.body;
}

/** Creates a session, joins the primary signer, starts it and waits for `in_progress`. */
export async function inProgressSession(apiKey: string, body: Record<string, unknown>) {
  const created = await readySession(apiKey, body);
  const joined = await join(tokenOf(created.bn_signing_url));
  assert.equal(joined.status, 200, `join: ${joined.text}`);
  const started = await action(apiKey, created.bn_session_id, 'start');
  assert.equal(started.status, 200, `start: ${started.text}`);
  await waitForSession(apiKey, created.bn_session_id, (s) => s.status === 'in_progress');
  return created;
}
