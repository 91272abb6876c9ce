import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import { assertAccessible } from '../support/accessibility';
import { browserAndWebhooks, onTestServer } from '../support/browser';
import { admin } from '../support/adminCli';
import { testEnvironment } from '../support/environment';
import { request } from '../support/http';
import { eventually } from '../support/eventually';
import { action, signer, tokenOf, waitForSession } from '../support/sessions';
import { recordHistory } from '../support/histories';
import { passKba, type KnownFacts } from '../support/identity';
import { subscribe } from '../support/webhookReceiver';
import { startSecondApp, type SecondApp } from '../support/secondApp';
import { query, readySession, teamAccount, teamBody } from '../sessions/helpers';
import {
  networkNotary,
  onDemandSession,
  signIn as signInAs,
  signerJoins,
  waitForRelation,
} from '../network/helpers';
import { DESKTOP, PHONE, lookAt } from './pageShots';

const LOGIN_LINKS = '/api/integrationsv2/login_links';

describe('the notary console, worked in all day (issue 62)', function () {
  this.timeout(240_000);
  const suite = browserAndWebhooks();

  /** The console of a team notary, signed in through the login link their vendor mints. */
  async function teamConsole(vendorKey: string, email: string, viewport = DESKTOP): Promise<Page> {
    const link = await request(LOGIN_LINKS, { auth: vendorKey, body: { email } });
    assert.equal(link.status, 200, link.text);
    const context = await suite.browser.newContext({ viewport, timezoneId: 'America/Chicago' });
    const page = await context.newPage();
    await page.goto(onTestServer(link.body.login_link));
    await page.waitForURL(/\/notary$/, { timeout: 15_000 });
    await page.locator('#sessions[data-loaded="true"]').waitFor({ timeout: 15_000 });
    return page;
  }
  const cardOf = (page: Page, id: string) => page.locator(`section[data-session-id="${id}"]`);
  const group = (page: Page, key: string) => page.locator(`section[data-group="${key}"]`);

  it('renews its sign-in while in use, past the token’s lifetime, and ends it on sign-out', async () => {
    const app: SecondApp = await startSecondApp({ accessTokenTtlSeconds: 4 });
    try {
      const email = `renew-${crypto.randomUUID().slice(0, 8)}@example.com`;
      const added = await admin([
        'add-network-notary',
        `--email=${email}`,
        '--first-name=Rene',
        '--last-name=Wal',
        '--state=IA',
        '--commission-number=IA-5',
        '--commission-expires-on=2099-12-31',
      ]);
      assert.equal(added.code, 0, added.stderr);
      const link = await admin(['network-login-link', `--email=${email}`]);
      const url = new URL(link.json.login_link);
      const page = await (await suite.browser.newContext({ viewport: PHONE })).newPage();
      await page.goto(`${app.url}${url.pathname}${url.search}`);
      await page.waitForURL(/\/notary$/, { timeout: 15_000 });
      const signedInAt = Date.now();
      const tokens = new Set<string>();
      await eventually(
        async () => {
          tokens.add((await page.evaluate('sessionStorage.getItem("access_token")')) as string);
          return Number(await page.locator('#sessions').getAttribute('data-refreshed-at'));
        },
        (refreshedAt) => tokens.size >= 4 && refreshedAt > signedInAt + 3 * 4000,
        'the console to keep working three token lifetimes on, renewing its token',
        { timeoutMs: 40_000, intervalMs: 500 },
      );
      assert.notEqual(await page.locator('#notice').getAttribute('data-state'), 'signed-out');
      const first = [...tokens][0];
      await lookAt(page, 'console-1-signed-in');

      const held = (await page.evaluate('sessionStorage.getItem("access_token")')) as string;
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.locator('#notice[data-state="signed-out"]').waitFor();
      assert.match(await page.locator('#notice').innerText(), /You have signed out/);
      assert.equal(await page.locator('#sessions > *').count(), 0, 'nothing left to press');
      assert.equal(await page.evaluate('sessionStorage.getItem("access_token")'), null);
      // Issue 70: nobody is named as signed in, and there is no Sign out to press, once signed out.
      assert.equal(await page.locator('#account').isVisible(), false, 'the header names nobody');
      assert.equal(await page.getByRole('button', { name: 'Sign out' }).count(), 0);
      await lookAt(page, 'console-2-signed-out');
      const fresh = await (await suite.browser.newContext({ viewport: PHONE })).newPage();
      await fresh.goto(`${app.url}/notary`);
      await fresh.locator('#notice[data-state="signed-out"]').waitFor();
      assert.equal(
        await fresh.locator('#account').isVisible(),
        false,
        'a fresh browser is signed in as nobody',
      );
      await fresh.context().close();
      for (const token of [held, first]) {
        const res = await fetch(`${app.url}/api/integrationsv2/me/sessions`, {
          headers: { authorization: `Bearer ${token}` },
        });
        assert.equal(res.status, 401, 'a token of an ended sign-in is refused');
      }
      await page.context().close();
    } finally {
      await app.close();
    }
  });

  it('shows an offer’s context and time left, alerts on its arrival, and Decline passes it on at once', async () => {
    const account = await teamAccount();
    // Offers go to the notary asked least, then to the one created first: the console's notary is.
    const email = `decline-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await admin([
      'add-network-notary',
      `--email=${email}`,
      '--first-name=Dee',
      '--last-name=Cline',
      '--state=KS',
      '--commission-number=KS-7',
      '--commission-expires-on=2099-12-31',
    ]);
    const next = await networkNotary('KS');
    const link = await admin(['network-login-link', `--email=${email}`]);
    const page = await (await suite.browser.newContext({ viewport: PHONE })).newPage();
    await page.goto(onTestServer(link.json.login_link));
    await page.waitForURL(/\/notary$/, { timeout: 15_000 });
    await page.locator('#sessions[data-loaded="true"]').waitFor({ timeout: 15_000 });
    assert.equal(await page.locator('#offer-alert').isHidden(), true);
    const session = await onDemandSession(account.apiKey, 'KS', {
      notarization_id: 'OFFER62',
      notarization_types: 'Acknowledgement,Jurat',
    });
    await signerJoins(session);
    const card = cardOf(page, session.bn_session_id);
    await card.and(page.locator('[data-relation="offered"]')).waitFor({ timeout: 30_000 });
    const alert = page.locator('#offer-alert');
    await alert.waitFor();
    assert.match(
      await alert.innerText(),
      /New offer: Session OFFER62 from Test account \w+ \(Acknowledgement, Jurat\)/,
    );
    assert.match(await page.title(), /^\(1\) New offer/);
    const facts = await card.locator('.facts').innerText();
    assert.match(facts, /Account\s+Test account/);
    assert.match(facts, /Act\s+Acknowledgement, Jurat/);
    assert.match(facts, /Commission\s+KS notary required/);
    assert.match(facts, /deed\.pdf \(PDF, 2 pages\)/);
    const countdown = card.locator('.countdown');
    const before = await countdown.innerText();
    assert.match(before, /^accept within [0-2]:\d\d$/);
    await eventually(
      () => countdown.innerText(),
      (now) => now !== before,
      'the countdown to move',
    );
    await lookAt(page, 'console-3-offer');

    await card.getByRole('button', { name: 'Decline: Session OFFER62' }).click();
    const notice = page.locator('#notice[data-state]');
    await notice.waitFor();
    assert.equal(await notice.getAttribute('data-state'), 'done', await notice.innerText());
    await card.waitFor({ state: 'detached', timeout: 15_000 });
    assert.equal(await group(page, 'offers').locator('h2').innerText(), 'Offers (0)');
    const [offer] = await query<{ outcome: string }>(
      `SELECT o.outcome FROM notary_offers o JOIN network_notaries n ON n.id = o.notary_id
        WHERE o.session_id = $1 AND n.email = $2`,
      [session.bn_session_id, email],
    );
    assert.equal(offer.outcome, 'declined');
    // Passed on at once to the next notary, well before the offer would have lapsed (2 minutes).
    await waitForRelation(next.token, session.bn_session_id, 'offered', 15_000);
    const again = await request(`/api/integrationsv2/me/sessions/${session.bn_session_id}/decline`, {
      auth: (await signInAs(email)).token,
      body: {},
    });
    assert.equal(again.status, 409, again.text);
    assert.equal((await action(account.apiKey, session.bn_session_id, 'cancel')).status, 200);
    await waitForSession(account.apiKey, session.bn_session_id, (x) => x.status === 'cancelled');
    await recordHistory('session-network-offer-declined', `session-${session.bn_session_id}`);
    await page.context().close();
  });

  it('a team notary’s day: grouped sessions with readable statuses, identity evidence, waiting time, and Cancel with a reason', async () => {
    const team = await teamAccount();
    await subscribe(team.apiKey, suite.hookUrl, ['session_cancelled']);
    const who = signer(0, {
      authentication_type: 'kba',
      first_name: 'Kay',
      last_name: 'Verified',
      address: '1 Elm Street',
      city: 'Austin',
      state: 'TX',
      zip: '73301',
      contact_details: '512-555-0101',
    });
    const waiting = await readySession(
      team.apiKey,
      await teamBody(team.notaryEmail, { notarization_id: 'WAIT62', all_signers: [who] }),
    );
    await request(`/sign/${tokenOf(waiting.full_signing_url)}/join`, {
      method: 'POST',
      headers: { accept: 'application/json' },
    });
    await passKba(waiting.full_signing_url, { ...who, state_name: 'Texas' } as KnownFacts);
    const notJoined = await readySession(
      team.apiKey,
      await teamBody(team.notaryEmail, { notarization_id: 'CANCEL62' }),
    );

    const page = await teamConsole(team.account.vendor_api_key, team.notaryEmail);
    const card = cardOf(page, waiting.bn_session_id);
    await card.waitFor();
    assert.equal(await card.locator('.status').innerText(), 'Ready to start');
    const person = await card.locator('[data-person="signers-0"]').innerText();
    assert.match(person, /Kay Verified — waiting for you for under a minute/);
    assert.match(person, /Knowledge-based questions passed on attempt 1 · 5 of 5 right · provider: sandbox/);
    await card.getByRole('button', { name: 'Start: Session WAIT62' }).waitFor();
    const other = cardOf(page, notJoined.bn_session_id);
    assert.match(
      await other.locator('.waits').innerText(),
      /Start waits: Session cannot be started before a signer has joined/,
    );
    assert.equal(await other.getByRole('button', { name: /^Start/ }).count(), 0);
    assert.match(await group(page, 'active').locator('h2').innerText(), /^Active sessions \(2\)$/);
    assert.equal(await group(page, 'offers').count(), 0, 'a team notary gets no offers');
    await lookAt(page, 'console-4-active');

    await other.getByRole('button', { name: 'Cancel session: Session CANCEL62' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel Session CANCEL62?' });
    await dialog.waitFor();
    assert.equal(await page.evaluate('document.activeElement.textContent'), 'Keep the session');
    await dialog.getByRole('button', { name: 'Cancel the session' }).click();
    assert.equal(await dialog.isVisible(), true, 'a reason is required');
    await dialog.getByLabel('Why is it cancelled?').fill('The signer asked to reschedule by phone.');
    await lookAt(page, 'console-5-cancel-reason');
    await dialog.getByRole('button', { name: 'Cancel the session' }).click();
    await group(page, 'done')
      .locator(`section[data-session-id="${notJoined.bn_session_id}"]`)
      .waitFor({ timeout: 15_000 });
    assert.equal(await cardOf(page, notJoined.bn_session_id).locator('.status').innerText(), 'Cancelled');
    await lookAt(page, 'console-6-done');
    const [hook] = (
      await suite.receiver.waitFor((r) => r.some((h) => h.json.bn_session_id === notJoined.bn_session_id))
    ).filter((h) => h.json.bn_session_id === notJoined.bn_session_id);
    assert.deepEqual(hook.json.data, {
      reason: 'The signer asked to reschedule by phone.',
      cancelled_by: 'notary',
    });
    await recordHistory('session-cancelled-with-reason', `session-${notJoined.bn_session_id}`);
    await page.context().close();
  });

  it('Complete asks first, with the documents to review; Release shows the notarized documents before they go', async () => {
    const team = await teamAccount();
    const created = await readySession(
      team.apiKey,
      await teamBody(team.notaryEmail, {
        notarization_id: 'SEAL62',
        final_documents_delivery_mode: 'notary_manual',
      }),
    );
    await request(`/sign/${tokenOf(created.full_signing_url)}/join`, {
      method: 'POST',
      headers: { accept: 'application/json' },
    });
    const page = await teamConsole(team.account.vendor_api_key, team.notaryEmail, PHONE);
    const card = cardOf(page, created.bn_session_id);
    await card.getByRole('button', { name: 'Start: Session SEAL62' }).click();
    await card.and(page.locator('[data-status="in_progress"]')).waitFor({ timeout: 15_000 });
    await card.getByRole('button', { name: 'Complete: Session SEAL62' }).click();
    const complete = page.getByRole('dialog', { name: 'Complete Session SEAL62?' });
    await complete.waitFor();
    assert.match(await complete.innerText(), /deed\.pdf: 0 of 1 places signed/);
    await lookAt(page, 'console-7-complete-confirm');
    await complete.getByRole('button', { name: 'Not yet' }).click();
    assert.equal(
      (await waitForSession(team.apiKey, created.bn_session_id, () => true)).status,
      'in_progress',
      'nothing happens without a yes',
    );
    await card.getByRole('button', { name: 'Complete: Session SEAL62' }).click();
    await complete.getByRole('button', { name: 'Review the documents' }).click();
    await page.locator('#documents-view:not([hidden])').waitFor();
    await complete.getByRole('button', { name: 'Complete the act' }).click();
    await card.and(page.locator('[data-status="completed"]')).waitFor({ timeout: 15_000 });
    await eventually(
      () => card.locator('.status').innerText(),
      (t) => t === 'Completed, documents waiting for your release',
      'the documents to be held',
      { timeoutMs: 60_000 },
    );

    await card.getByRole('button', { name: 'Release documents: Session SEAL62' }).click();
    const release = page.getByRole('dialog', { name: 'Release the documents of Session SEAL62?' });
    const open = release.getByRole('link', { name: 'Open deed.pdf' });
    await open.waitFor();
    const pdf = await fetch(onTestServer((await open.getAttribute('href'))!));
    assert.equal(pdf.status, 200);
    assert.equal(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
      '%PDF-',
    );
    await lookAt(page, 'console-8-release-preview');
    await release.getByRole('button', { name: 'Release them' }).click();
    await group(page, 'done')
      .locator(`section[data-session-id="${created.bn_session_id}"]`)
      .waitFor({ timeout: 30_000 });
    await page.context().close();
  });

  it('the admin CLI’s network login link leads to the running service; /docs reads on a phone', async () => {
    const env = { ...testEnvironment().processEnv };
    delete env.FRONT_URL;
    delete env.PUBLIC_BASE_URL;
    const email = `link-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await admin(['add-network-witness', `--email=${email}`, '--first-name=Lin', '--last-name=K'], env);
    const link = await admin(['network-login-link', `--email=${email}`], env);
    assert.equal(link.code, 0, link.stderr);
    assert.ok(
      link.json.login_link.startsWith(`${testEnvironment().config.frontUrl}/auto/`),
      link.json.login_link,
    );

    const page = await (await suite.browser.newContext({ viewport: PHONE })).newPage();
    await page.goto(`${testEnvironment().apiUrl}/docs`);
    const first = page.locator('.opblock').first();
    await first.waitFor({ timeout: 30_000 });
    assert.equal(
      await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth + 1'),
      true,
      'no sideways scrolling',
    );
    const top = (await first.boundingBox())!.y;
    assert.ok(top < 1200, `the first operation starts ${top} px down`);
    await page.getByText(/^Decisions where the specification is silent \(\d+\)$/).click();
    await page
      .getByText(/judged by the session itself/)
      .first()
      .waitFor();
    await page.screenshot({ path: `${__dirname}/../../.data/screenshots/pages/docs-phone.png` });
    await assertAccessible(page, '/docs on a phone');
    await page.context().close();

    // Issue 70: at a desk too, with an operation open (its parameters, responses and media type).
    const desk = await (await suite.browser.newContext({ viewport: DESKTOP })).newPage();
    await desk.goto(`${testEnvironment().apiUrl}/docs`);
    await desk.locator('.opblock').first().waitFor({ timeout: 30_000 });
    await desk.locator('.opblock-summary').first().click();
    await desk.locator('.responses-wrapper').first().waitFor();
    await assertAccessible(desk, '/docs at a desk, an operation open');
    await desk.screenshot({ path: `${__dirname}/../../.data/screenshots/pages/docs-desktop.png` });
    await desk.context().close();
  });
});
