import crypto from 'node:crypto';
import { b64, pdfBytes } from './documents';
import { request, type ApiResponse } from './http';
import { addTeamNotary, createTestAccount } from './accounts';
import { eventually } from './eventually';
import { subscribe } from './webhookReceiver';

/**
 * A signer whose identity check is waived (`skip`) unless `extra` asks for one: the tests of identity
 * proofing ask for it; the others are about something else.
 */
export function signer(i = 0, extra: Record<string, unknown> = {}) {
  return {
    email: `signer${i}-${crypto.randomUUID().slice(0, 6)}@example.com`,
    first_name: `First${i}`,
    last_name: `Last${i}`,
    authentication_type: 'skip',
    ...extra,
  };
}

export function notarizationId(): string {
  return `N${crypto.randomUUID().replace(/-/g, '')}`;
}

/** A valid create body: one signer, one PDF, now, general notarization; override any field. */
export async function sessionBody(overrides: Record<string, unknown> = {}): Promise<Record<string, any>> {
  return {
    signing_type: 'ron',
    notarization_id: notarizationId(),
    notarization_timing_type: 'notarize_now',
    session_type: 'gnw',
    all_signers: [signer(0)],
    session_documents: [{ name: 'deed.pdf', base64Doc: b64(await pdfBytes(2)) }],
    ...overrides,
  };
}

export function createSession(
  apiKey: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  return request('/api/integrationsv2/sessions', { auth: apiKey, body, headers });
}

export async function getSession(apiKey: string, id: string): Promise<ApiResponse> {
  return request(`/api/integrationsv2/sessions/${id}`, { auth: apiKey });
}

/** Polls until `predicate` holds for the session (workflow transitions are asynchronous). */
export async function waitForSession(
  apiKey: string,
  id: string,
  predicate: (session: any) => boolean,
  timeoutMs = 20_000,
): Promise<any> {
  return eventually(
    async () => (await getSession(apiKey, id)).body,
    predicate,
    `session ${id} to reach the expected state`,
    { timeoutMs },
  );
}

export function action(apiKey: string, id: string, name: string): Promise<ApiResponse> {
  return request(`/api/integrationsv2/sessions/${id}/${name}`, { auth: apiKey, body: {} });
}

export function tokenOf(url: string): string {
  return url.split('/sign/')[1];
}

export function joinSession(signingUrl: string): Promise<ApiResponse> {
  return request(`/sign/${tokenOf(signingUrl)}/join`, { method: 'POST' });
}

/** A new account with a commissioned team notary, and a session naming that notary. */
export async function teamNotarySession(overrides: Record<string, unknown> = {}) {
  const account = await createTestAccount();
  const notary = await addTeamNotary(account.account_id);
  const created = await createSession(
    account.api_key,
    await sessionBody({ session_notary_email: notary.email, ...overrides }),
  );
  return { account, notary, created, id: created.body.bn_session_id as string };
}

/** A ready team-notary session whose signer has joined, its account subscribed to `events` at `hookUrl`. */
export async function joinedSessionWithHook(hookUrl: string, events: string[]) {
  const session = await teamNotarySession();
  await subscribe(session.account.api_key, hookUrl, events);
  await waitForSession(session.account.api_key, session.id, (s) => s.status === 'ready');
  const joined = await joinSession(session.created.body.bn_signing_url);
  if (joined.status !== 200) throw new Error(`the signer could not join: ${joined.status} ${joined.text}`);
  return session;
}
