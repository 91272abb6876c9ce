import type { Sequelize } from 'sequelize';
import { addNetworkNotary } from '../src/accounts/accounts';
import { createNetworkLoginLink } from '../src/network/networkPeople';
import { record, percentile, ms } from './report';
import { waitUntil } from './processes';
import { createUrlOf } from './load';

/** A network notary commissioned in OK, signed in as the console signs them in: their headers. */
async function signedInNetworkNotary(apiUrl: string, sequelize: Sequelize): Promise<Record<string, string>> {
  const networkEmail = 'bench-network@example.com';
  await addNetworkNotary(sequelize, {
    email: networkEmail,
    firstName: 'Bench',
    lastName: 'Network',
    state: 'OK',
    commissionNumber: 'OK-1',
    commissionExpiresOn: '2099-12-31',
  });
  const link = new URL(
    (await createNetworkLoginLink(sequelize, { frontUrl: apiUrl, lifetimeSeconds: 3600 }, networkEmail))
      .login_link,
  );
  const signedIn = (await (
    await fetch(`${apiUrl}/api/integrationsv2/auth/login_link`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        login_link_id: link.pathname.split('/').at(-1),
        key: link.searchParams.get('key'),
      }),
    })
  ).json()) as { access_token: string };
  return { authorization: `Bearer ${signedIn.access_token}`, 'content-type': 'application/json' };
}

/** The notary's console asks for its offers until this session's is there; a notary who accepts at once is the bot. */
async function waitForOffer(
  apiUrl: string,
  notary: Record<string, string>,
  sessionId: string,
  since: number,
) {
  for (;;) {
    const mine = (await (
      await fetch(`${apiUrl}/api/integrationsv2/me/sessions`, { headers: notary })
    ).json()) as {
      sessions: Array<{ bn_session_id: string; relation: string }>;
    };
    if (mine.sessions.some((s) => s.bn_session_id === sessionId && s.relation === 'offered')) return;
    if (performance.now() - since > 60_000) throw new Error(`session ${sessionId}: no offer within a minute`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The session cancelled, and recorded so: the notary is free for the next one. */
async function cancelled(apiUrl: string, auth: Record<string, string>, sessionId: string) {
  await fetch(`${createUrlOf(apiUrl)}/${sessionId}/cancel`, { method: 'POST', headers: auth, body: '{}' });
  await waitUntil(
    'the cancellation',
    async () =>
      (
        (await (await fetch(`${createUrlOf(apiUrl)}/${sessionId}`, { headers: auth })).json()) as {
          status: string;
        }
      ).status === 'cancelled',
    30_000,
    20,
  );
}

/** P6: from the signer joining an on-demand session to a network notary's accept (100 sessions, one notary). */
export async function p6TimeToNotary(
  apiUrl: string,
  sequelize: Sequelize,
  auth: Record<string, string>,
  bodyWith: (doc: string, extra?: Record<string, unknown>) => string,
  deed: string,
) {
  const notary = await signedInNetworkNotary(apiUrl, sequelize);
  const toAccept: number[] = [];
  const create = async () =>
    (await (
      await fetch(createUrlOf(apiUrl), {
        method: 'POST',
        headers: auth,
        body: bodyWith(deed, { session_notary_email: undefined, state_specific_notary: 'OK' }),
      })
    ).json()) as { bn_session_id: string; bn_signing_url: string };
  let next = create();
  for (let i = 0; i < 100; i++) {
    const created = await next;
    const joinedAt = performance.now();
    const joined = await fetch(`${apiUrl}${created.bn_signing_url}/join`, { method: 'POST' });
    if (joined.status !== 200)
      throw new Error(`session ${i + 1}: the join answered ${joined.status}: ${await joined.text()}`);
    await waitForOffer(apiUrl, notary, created.bn_session_id, joinedAt);
    const accepted = await fetch(`${apiUrl}/api/integrationsv2/me/sessions/${created.bn_session_id}/accept`, {
      method: 'POST',
      headers: notary,
      body: '{}',
    });
    if (((await accepted.json()) as { status: string }).status !== 'ready')
      throw new Error('accept did not make it ready');
    toAccept.push(performance.now() - joinedAt);
    // The next session is created while this one is cancelled: its signer joins only once the notary is free.
    if (i < 99) next = create();
    await cancelled(apiUrl, auth, created.bn_session_id);
  }
  record({
    id: 'P6',
    measure: 'time to notary: signer joins → a network notary’s accept answered (100 sessions)',
    value: `p50 ${ms(percentile(toAccept, 50))}, p99 ${ms(percentile(toAccept, 99))}`,
    target: 'p50 < 1 s',
    pass: percentile(toAccept, 50) < 1_000,
  });
}
