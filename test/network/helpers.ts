import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { addNetworkNotary } from '../../src/accounts/accounts';
import { addNetworkWitness, createNetworkLoginLink } from '../../src/network/networkPeople';
import { testEnvironment } from '../support/environment';
import { request, type ApiResponse } from '../support/http';
import { createSession, sessionBody, tokenOf } from '../support/sessions';
import { eventually } from '../support/eventually';

export interface NetworkPersonLogin {
  id: string;
  email: string;
  token: string;
}

/** Signs a network person in the way the console does: their login link, exchanged for a token. */
export async function signIn(email: string): Promise<NetworkPersonLogin> {
  const env = testEnvironment();
  const link = await createNetworkLoginLink(
    env.runtime.sequelize,
    { frontUrl: env.config.frontUrl, lifetimeSeconds: 600 },
    email,
  );
  const url = new URL(link.login_link);
  const answer = await request('/api/integrationsv2/auth/login_link', {
    body: { login_link_id: url.pathname.split('/').at(-1), key: url.searchParams.get('key') },
  });
  assert.equal(answer.status, 200, answer.text);
  return { id: answer.body.network_member.id, email, token: answer.body.access_token };
}

/** A network notary commissioned in `state` (until 2099 unless said), signed in. */
export async function networkNotary(state: string, expiresOn = '2099-12-31'): Promise<NetworkPersonLogin> {
  const email = `net-${state.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  await addNetworkNotary(testEnvironment().runtime.sequelize, {
    email,
    firstName: 'Net',
    lastName: `Notary ${state}`,
    state,
    commissionNumber: `${state}-${crypto.randomUUID().slice(0, 6)}`,
    commissionExpiresOn: expiresOn,
  });
  return signIn(email);
}

export async function networkWitness(): Promise<string> {
  const email = `witness-${crypto.randomUUID().slice(0, 8)}@example.com`;
  await addNetworkWitness(testEnvironment().runtime.sequelize, {
    email,
    firstName: 'Wendy',
    lastName: `Witness ${email.slice(8, 12)}`,
  });
  return email;
}

/** An on-demand session restricted to `state`; each test uses states no other test does. */
export async function onDemandSession(apiKey: string, state: string, extra: Record<string, unknown> = {}) {
  const created = await createSession(apiKey, await sessionBody({ state_specific_notary: state, ...extra }));
  assert.equal(created.status, 200, created.text);
  return created.body as {
    bn_session_id: string;
    bn_signing_url: string;
    witnessess_signing_urls?: Array<{ bn_signing_url: string }>;
  };
}

export function signerJoins(session: { bn_signing_url: string }): Promise<ApiResponse> {
  return request(`/sign/${tokenOf(session.bn_signing_url)}/join`, {
    method: 'POST',
    headers: { accept: 'application/json' },
  });
}

export function mySessions(token: string): Promise<ApiResponse> {
  return request('/api/integrationsv2/me/sessions', { auth: token });
}

export function meAction(
  token: string,
  sessionId: string,
  name: 'accept' | 'decline' | 'join',
): Promise<ApiResponse> {
  return request(`/api/integrationsv2/me/sessions/${sessionId}/${name}`, { auth: token, body: {} });
}

/** Waits until the session shows in the person's list with `relation`. */
export function waitForRelation(token: string, sessionId: string, relation: string, timeoutMs = 30_000) {
  return eventually(
    async () => (await mySessions(token)).body.sessions.find((s: any) => s.bn_session_id === sessionId),
    (s) => s?.relation === relation,
    `session ${sessionId} to be ${relation}`,
    { timeoutMs },
  );
}

/** The session ids currently offered to the person. */
export async function offersTo(token: string): Promise<string[]> {
  return (await mySessions(token)).body.sessions
    .filter((s: any) => s.relation === 'offered')
    .map((s: any) => s.bn_session_id);
}

/** The one of `notaries` the session is offered to first, once it is. */
export async function firstOfferedOf(
  notaries: NetworkPersonLogin[],
  sessionId: string,
): Promise<NetworkPersonLogin> {
  const first = await eventually(
    async () => {
      for (const n of notaries) if ((await offersTo(n.token)).includes(sessionId)) return n;
      return undefined;
    },
    (n) => n !== undefined,
    'the first offer',
  );
  return first!;
}
