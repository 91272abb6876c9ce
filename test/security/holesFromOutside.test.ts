import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { addTeamNotary, createTestAccount } from '../support/accounts';
import {
  firstOfferedOf,
  networkNotary,
  onDemandSession,
  signerJoins,
  waitForRelation,
} from '../network/helpers';
import { request } from '../support/http';
import { testEnvironment, TEST_METRICS_TOKEN } from '../support/environment';
import { createSession, sessionBody, signer, tokenOf, waitForSession } from '../support/sessions';
import { ID_FRONT, SELFIE, photo } from '../support/identity';
import { admin } from '../support/adminCli';
import { completedSession, downloadAll, pdftotext, removeTempFiles, squash } from '../documents/helpers';
import { join, query, readySession } from '../sessions/helpers';
import {
  commissionConfirmation,
  confirmCommissionFromMail,
  invite,
  inviteBody,
  memberToken,
  TEAM,
  uniqueEmail,
} from '../team/helpers';

const ONBOARDING = '/api/integrationsv2/notary/onboarding';
const EVIL = {
  state: 'CA',
  county: 'Alameda',
  commission_number: 'EVIL-0001',
  commission_expires_on: '2039-01-01',
  first_name: 'Mallory',
  last_name: 'Forged',
};

/** Issue 58: the holes a security review found from outside, each shown closed through HTTP. */
describe('holes found from outside (issue 58)', function () {
  this.timeout(180_000);
  after(() => removeTempFiles());

  describe('1. a vendor-minted login link cannot rewrite the person’s commission', () => {
    it('vendor B’s link chain leaves vendor A’s notary, seal, certificates and sessions as they were', async () => {
      const [a, b] = await Promise.all([createTestAccount({ autoOnboarding: true }), createTestAccount()]);
      const email = uniqueEmail('notary-n');
      const commissionNumber = `TX-A-${crypto.randomUUID().slice(0, 8)}`;
      const inA = await invite(
        a.vendor_api_key,
        inviteBody({
          email,
          first_name: 'Nora',
          last_name: 'Genuine',
          state: 'TX',
          county: 'Travis',
          commission_number: commissionNumber,
          commission_expires_on: '2034-05-31',
        }),
      );
      assert.equal(inA.status, 201, inA.text);
      const memberInA = inA.body.user_data.id as string;
      const earlier = await readySession(a.api_key, await sessionBody({ session_notary_email: email }));

      // B links the same person, mints a login link, signs in as them and asks for another commission,
      // twenty times at once.
      assert.equal((await invite(b.vendor_api_key, inviteBody({ email }))).status, 201);
      const tokenInB = await memberToken(b.vendor_api_key, email);
      const attempts = await Promise.all(
        Array.from({ length: 20 }, () => request(ONBOARDING, { auth: tokenInB, body: EVIL })),
      );
      assert.deepEqual(
        [...new Set(attempts.map((r) => r.status))],
        [202],
        attempts.map((r) => r.text).join('\n'),
      );
      assert.match(attempts[0].body.confirmation_sent_to, /^n•••@example\.com$/);

      const member = await request(`${TEAM}/${memberInA}`, { auth: a.vendor_api_key });
      assert.deepEqual([member.body.state, member.body.county], ['TX', 'Travis']);
      const seal = await request(`${TEAM}/${memberInA}/seal.svg`, { auth: a.vendor_api_key });
      assert.ok(seal.text.includes(commissionNumber) && !seal.text.includes('EVIL'), seal.text);
      const named = await createSession(a.api_key, await sessionBody({ session_notary_email: email }));
      assert.equal(named.status, 200, `A still names its notary: ${named.text}`);

      // The request is audited: who asked, through which credential, still unconfirmed.
      const history = (await admin(['commission-history', '--email', email])).json;
      const asked = history.changes.filter((c: any) => c.credential === 'login_link');
      assert.equal(asked.length, 20);
      assert.ok(asked.every((c: any) => c.status === 'pending' && c.after.commission_number === 'EVIL-0001'));
      assert.equal(asked[0].requested_through_account, (await accountName(b.account_id)) ?? undefined);
      const [vendorFirst] = history.changes;
      assert.deepEqual([vendorFirst.credential, vendorFirst.proof], ['vendor_key', 'vendor_invite']);

      // A's session that named N completes under N's real commission.
      await join(tokenOf(earlier.bn_signing_url));
      const certificate = await completedOn(a.api_key, earlier.bn_session_id);
      assert.match(certificate, /Nora Genuine/);
      assert.ok(certificate.includes(commissionNumber) && !/Mallory|EVIL/.test(certificate), certificate);
    });

    it('the real notary renews through a login link and confirms from their own e-mail', async () => {
      const a = await createTestAccount({ autoOnboarding: true });
      const email = uniqueEmail('renewing');
      const invited = await invite(
        a.vendor_api_key,
        inviteBody({
          email,
          state: 'TX',
          county: 'Travis',
          commission_number: 'TX-OLD-1',
          commission_expires_on: '2027-01-31',
        }),
      );
      const token = await memberToken(a.vendor_api_key, email);
      const renewal = {
        state: 'TX',
        county: 'Travis',
        commission_number: 'TX-NEW-2',
        commission_expires_on: '2031-01-31',
      };
      assert.equal((await request(ONBOARDING, { auth: token, body: renewal })).status, 202);

      const { id, key, url } = await commissionConfirmation(email);
      const page = await request(`${url.pathname}${url.search}`);
      assert.equal(page.status, 200);
      assert.match(page.text, /TX-OLD-1[\s\S]*TX-NEW-2/);
      const unchanged = await request(`${TEAM}/${invited.body.user_data.id}/seal.svg`, {
        auth: a.vendor_api_key,
      });
      assert.ok(unchanged.text.includes('TX-OLD-1'), 'opening the page changes nothing');
      const wrongKey = await request(`/api/integrationsv2/notary/commission_changes/${id}/confirm`, {
        body: { key: key.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) },
      });
      assert.equal(wrongKey.status, 404);

      const confirmed = await confirmCommissionFromMail(email);
      assert.equal(confirmed.status, 200, confirmed.text);
      assert.equal(confirmed.body.commission.commission_number, 'TX-NEW-2');
      const again = await confirmCommissionFromMail(email);
      assert.deepEqual(again.body, confirmed.body, 'confirming twice answers the same');
      const seal = await request(`${TEAM}/${invited.body.user_data.id}/seal.svg`, { auth: a.vendor_api_key });
      assert.ok(seal.text.includes('TX-NEW-2'), seal.text);
      const history = (await admin(['commission-history', '--email', email])).json;
      const applied = history.changes.at(-1);
      assert.deepEqual(
        [applied.status, applied.credential, applied.proof, applied.before.commission_number],
        ['applied', 'login_link', 'email_confirmation', 'TX-OLD-1'],
      );
    });
  });

  describe('2. concurrent identity attempts never beat the attempt limit', () => {
    it('20 parallel ID checks (10 too small to read, 10 readable) are scored at most twice, with distinct attempts', async () => {
      for (let burst = 0; burst < 3; burst++) {
        const { token, sessionId } = await joinedSigner('biometrics');
        const small = {
          id_front: photo(120, 80, 'ID').toString('base64'),
          selfie: SELFIE.toString('base64'),
        };
        const valid = { id_front: ID_FRONT.toString('base64'), selfie: SELFIE.toString('base64') };
        const bodies = Array.from({ length: 20 }, (_, i) => (i % 2 ? valid : small));
        const answers = await Promise.all(
          bodies.map((body) => request(`/sign/${token}/identity/id_check`, { body })),
        );
        // A photo too small to read is refused before the attempt slot (422): it is never scored.
        assert.ok(
          answers.every((r, i) => (i % 2 ? r.status === 200 || r.status === 409 : r.status === 422)),
          answers.map((r) => `${r.status} ${r.text}`).join('\n'),
        );
        const scored = await query<{ attempt: number; outcome: string }>(
          `SELECT attempt, outcome FROM identity_checks WHERE session_id = $1 AND method = 'biometrics' ORDER BY attempt`,
          [sessionId],
        );
        assert.ok(scored.length >= 1 && scored.length <= 2, `at most 2 scored: ${JSON.stringify(scored)}`);
        assert.deepEqual(
          scored.map((s) => s.attempt),
          scored.map((_, i) => i + 1),
          'attempt numbers are distinct and in order',
        );
        assert.equal(
          await providerVerifications(token, 'document'),
          scored.length,
          'the provider scored only the recorded attempts',
        );
        assert.equal(answers.filter((r) => r.status === 200).length, scored.length);
      }
    });

    it('20 parallel KBA starts open one quiz, one attempt', async () => {
      const { token, sessionId } = await joinedSigner('kba');
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => request(`/sign/${token}/identity/kba`, { body: {} })),
      );
      assert.ok(answers.some((r) => r.status === 200));
      assert.ok(answers.every((r) => r.status === 200 || r.status === 409));
      const quizzes = new Set(answers.filter((r) => r.status === 200).map((r) => r.body.check_id));
      assert.equal(quizzes.size, 1, 'every start that answered got the same quiz');
      const rows = await query('SELECT attempt FROM identity_checks WHERE session_id = $1', [sessionId]);
      assert.deepEqual(rows, [{ attempt: 1 }]);
      assert.equal(await providerVerifications(token, 'kba'), 1, 'the provider was asked for one quiz');
    });
  });

  it('3. the sandbox identity provider refuses to start under any NODE_ENV but development or test', async () => {
    for (const nodeEnv of ['staging', 'prod', 'production']) {
      const result = await startApi({ NODE_ENV: nodeEnv });
      assert.equal(result.code, 1, `${nodeEnv}: ${result.stderr}`);
      const lines = result.stderr.trim().split('\n');
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0], new RegExp(`NODE_ENV is "${nodeEnv}".*ALLOW_SANDBOX_IDENTITY=true`));
    }
  });

  it('4. a large body to an unknown signing link is refused before it is read', async () => {
    // Only the first KiB of a 13 MiB body is ever sent: an answer proves the server did not wait to read it.
    const token = crypto.randomBytes(32).toString('base64url');
    const { status, body } = await answerBeforeBody(`/sign/${token}/identity/id_check`, 13 * 1024 * 1024);
    assert.equal(status, 404);
    assert.equal(JSON.parse(body).response_message, 'Signing link not found');
  });

  it('5. the completion page shows nothing of a session without the participant’s signed link', async () => {
    const account = await createTestAccount({ completionRedirectUrl: 'https://acme.test/done' });
    const { created } = await completedWithTeamNotary(account);
    const nid = created.notarization_id as string;
    for (const query of [
      `notarization_id=${nid}`,
      `notarization_id=${nid}&bn_session_id=${created.bn_session_id}`,
    ]) {
      const res = await fetch(`${testEnvironment().apiUrl}/complete?${query}`, { redirect: 'manual' });
      assert.equal(res.status, 200, 'no redirect without the link');
      const html = await res.text();
      assert.ok(!html.includes('deed.pdf') && !html.includes(nid), html);
      assert.ok(!html.includes(await accountName(account.account_id)), html);
    }
    const ended = await request(`/sign/${tokenOf(created.bn_signing_url)}`, {
      headers: { accept: 'application/json' },
    });
    assert.equal(ended.status, 410);
    const signed = new URL(ended.body.completion_url);
    const tampered = new URL(signed);
    tampered.searchParams.set('expires', String(Number(signed.searchParams.get('expires')) + 1));
    assert.equal((await fetch(localOf(tampered), { redirect: 'manual' })).status, 200);
    const res = await fetch(localOf(signed), { redirect: 'manual' });
    assert.equal(res.status, 302);
    assert.equal(new URL(res.headers.get('location')!).searchParams.get('notarization_id'), nid);
  });

  it('6. pages carry a strict policy and the security headers; credentialed ones are never cached', async () => {
    const account = await createTestAccount();
    const { created } = await completedWithTeamNotary(account, false);
    const pages = [
      `/sign/${tokenOf(created.bn_signing_url)}`,
      '/notary',
      '/complete',
      '/docs',
      '/auto/x?key=y',
    ];
    for (const page of pages) {
      const res = await fetch(`${testEnvironment().apiUrl}${page}`);
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'none'/, page);
      assert.match(csp, /frame-ancestors 'none'/, page);
      assert.ok(!/script-src[^;]*'unsafe-inline'/.test(csp), `${page}: ${csp}`);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', page);
      assert.equal(res.headers.get('x-frame-options'), 'DENY', page);
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer', page);
      assert.match(res.headers.get('strict-transport-security') ?? '', /max-age=\d+/, `${page} (behind TLS)`);
      if (page !== '/docs') assert.equal(res.headers.get('cache-control'), 'no-store', page);
      const html = await res.text();
      for (const [, script] of html.matchAll(/<script>([\s\S]*?)<\/script>/g)) {
        const hash = crypto.createHash('sha256').update(script).digest('base64');
        assert.ok(csp.includes(`'sha256-${hash}'`), `${page}: its inline script is allowed by hash`);
      }
    }
  });

  describe('7. minor leaks', () => {
    it('/metrics answers only the operator’s token', async () => {
      assert.equal((await request('/metrics')).status, 404);
      assert.equal((await request('/metrics', { auth: 'guess' })).status, 404);
      assert.equal((await request('/metrics', { auth: TEST_METRICS_TOKEN })).status, 200);
    });

    it('a network notary whose offer lapsed is told "not found", as for any session not theirs', async () => {
      const account = await createTestAccount();
      const notaries = [await networkNotary('DE'), await networkNotary('DE')];
      const session = await onDemandSession(account.api_key, 'DE');
      await signerJoins(session);
      const first = await firstOfferedOf(notaries, session.bn_session_id);
      const next = notaries.find((n) => n !== first)!;
      await waitForRelation(next.token, session.bn_session_id, 'offered');
      for (const step of ['start', 'complete', 'cancel']) {
        const res = await request(`/api/integrationsv2/sessions/${session.bn_session_id}/${step}`, {
          auth: first.token,
          body: {},
        });
        assert.equal(res.status, 404, `${step}: ${res.text}`);
        assert.equal(res.body.response_message, 'Session not found');
      }
      await request(`/api/integrationsv2/sessions/${session.bn_session_id}/cancel`, {
        auth: account.api_key,
        body: {},
      });
    });
  });
});

/** How many verifications of `kind` the sandbox provider was asked for, for the link's participant. */
async function providerVerifications(token: string, kind: 'kba' | 'document'): Promise<number> {
  const [row] = await query<{ n: number }>(
    `SELECT count(*)::int AS n FROM sandbox_identity_verifications v
      WHERE v.kind = $2 AND v.subject ->> 'email' = (SELECT email FROM participants WHERE token_hash = $1)`,
    [crypto.createHash('sha256').update(token).digest(), kind],
  );
  return row.n;
}

async function accountName(accountId: string): Promise<string> {
  const [row] = await query<{ name: string }>('SELECT name FROM accounts WHERE id = $1', [accountId]);
  return row.name;
}

/** A session of a team notary of `account`, completed (and its documents released, unless not asked). */
async function completedWithTeamNotary(account: { account_id: string; api_key: string }, released = true) {
  const email = uniqueEmail('team-notary');
  await addTeamNotary(account.account_id, email);
  const body = await sessionBody({ session_notary_email: email });
  if (released) return completedSession(account.api_key, body);
  return { created: await readySession(account.api_key, body) };
}

/** Completes a started-ready session whose signer joined; its certificate page's text. */
async function completedOn(apiKey: string, id: string): Promise<string> {
  for (const step of ['start', 'complete'])
    assert.equal(
      (await request(`/api/integrationsv2/sessions/${id}/${step}`, { auth: apiKey, body: {} })).status,
      200,
    );
  await waitForSession(apiKey, id, (s) => s.documents_status === 'released', 120_000);
  const {
    files: [document],
  } = await downloadAll(apiKey, id);
  return squash(await pdftotext(document.bytes));
}

/** A session of one joined signer whose check is `method`: their token and the session. */
async function joinedSigner(method: 'kba' | 'biometrics') {
  const account = await createTestAccount();
  const email = uniqueEmail('idcheck-notary');
  await addTeamNotary(account.account_id, email);
  const created = await readySession(
    account.api_key,
    await sessionBody({
      session_notary_email: email,
      all_signers: [signer(0, { authentication_type: method })],
    }),
  );
  const token = tokenOf(created.bn_signing_url);
  assert.equal((await join(token)).status, 200);
  return { token, sessionId: created.bn_session_id as string };
}

/** A URL the service signed for its public base, on the test server. */
function localOf(url: URL): string {
  return `${testEnvironment().apiUrl}${url.pathname}${url.search}`;
}

/** The API's entry point as its own process, with the test environment's services. */
async function startApi(env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  const root = path.join(__dirname, '..', '..');
  try {
    await promisify(execFile)(path.join(root, 'node_modules', '.bin', 'tsx'), ['scripts/start-api.ts'], {
      cwd: root,
      env: { ...testEnvironment().processEnv, LOG_LEVEL: 'warn', PORT: '0', ...env },
      timeout: 60_000,
    });
    return { code: 0, stderr: '' };
  } catch (err) {
    const e = err as { code: number; stderr: string };
    return { code: e.code, stderr: e.stderr };
  }
}

/** Sends a POST's headers and its first KiB, never the rest: the answer the server gives without the body. */
function answerBeforeBody(path: string, contentLength: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${testEnvironment().apiUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': contentLength },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode!, body });
        req.destroy();
      });
    });
    req.on('error', reject);
    req.write(`{"id_front":"${'A'.repeat(1024)}`);
  });
}
