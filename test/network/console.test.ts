import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { browserAndWebhooks, onTestServer } from '../support/browser';
import { admin } from '../support/adminCli';
import { createTestAccount } from '../support/accounts';
import { getSession, waitForSession } from '../support/sessions';
import { ID_FRONT, SELFIE } from '../support/identity';
import { subscribe } from '../support/webhookReceiver';
import { networkWitness, onDemandSession, signerJoins } from './helpers';
import { farJurisdictionDays } from '../support/farJurisdictions';
import { downloadAll, pdftotext, removeTempFiles, squash } from '../documents/helpers';

const SCREENSHOTS = path.join(__dirname, '..', '..', '.data', 'screenshots');

/** A network notary added through the admin CLI: their e-mail, and their login link from it. */
async function notaryByAdminCli(name: string, state: string, number: string, expiresOn = '2099-12-31') {
  const email = `console-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const [first, last] = name.split(' ');
  const added = await admin([
    'add-network-notary',
    `--email=${email}`,
    `--first-name=${first}`,
    `--last-name=${last}`,
    `--state=${state}`,
    `--commission-number=${number}`,
    `--commission-expires-on=${expiresOn}`,
  ]);
  assert.equal(added.code, 0, added.stderr);
  const link = await admin(['network-login-link', `--email=${email}`]);
  assert.equal(link.code, 0, link.stderr);
  return { email, link };
}

describe('the notary console in a real browser (issue 11)', function () {
  this.timeout(120_000);
  const suite = browserAndWebhooks();
  after(() => removeTempFiles());

  const shot = (page: Page, name: string) =>
    page.screenshot({ path: path.join(SCREENSHOTS, `console-${name}.png`), fullPage: true });

  it('a network notary signs in by link, accepts an offered session, starts and completes it; the certificate dates the act in their device’s zone', async () => {
    const account = await createTestAccount();
    await subscribe(account.api_key, suite.hookUrl, [
      'notary_assigned',
      'session_started',
      'session_completed',
    ]);
    const { link } = await notaryByAdminCli('Connie Console', 'AK', 'AK-77');
    assert.equal(link.json.role, 'notary');
    const session = await onDemandSession(account.api_key, 'AK', { notarization_id: 'LOAN2291' });
    assert.equal((await signerJoins(session)).status, 200);

    // A phone-sized screen: the console is used from one as much as from a desk. On Adak, in Alaska's other
    // zone: Alaska's day ends first on Anchorage's time.
    const context = await suite.browser.newContext({
      viewport: { width: 390, height: 844 },
      timezoneId: 'America/Adak',
    });
    try {
      const page = await context.newPage();
      await page.goto(onTestServer(link.json.login_link));
      await page.locator('#status[data-state="signed-in"]').waitFor({ timeout: 15_000 });
      assert.match((await page.locator('#status').textContent()) ?? '', /Connie Console \(notary\)/);
      // The sign-in page takes them to their sessions by itself.
      await page.waitForURL(/\/notary$/, { timeout: 15_000 });
      assert.equal(await page.locator('#who').textContent(), 'Signed in as Connie Console (notary)');
      // Issue 70: the notary's own name, not the header's words, is what their signature starts from.
      assert.equal(await page.evaluate('sessionStorage.getItem("signed_in_name")'), 'Connie Console');
      await page.locator('#sessions[data-loaded="true"]').waitFor({ timeout: 15_000 });
      assert.equal(await page.locator('#commission').isHidden(), true, 'a commission with years left');

      const card = page.locator(`section[data-session-id="${session.bn_session_id}"]`);
      await card.and(page.locator('[data-relation="offered"]')).waitFor({ timeout: 30_000 });
      assert.match((await card.textContent()) ?? '', /Session LOAN2291/);
      assert.match((await card.textContent()) ?? '', /deed\.pdf/);
      await shot(page, '1-offered');

      await card.getByRole('button', { name: 'Accept: Session LOAN2291' }).click();
      await page.locator('#notice[data-state="done"]').waitFor();
      await card.and(page.locator('[data-status="ready"]')).waitFor({ timeout: 15_000 });
      await shot(page, '2-accepted');

      await card.getByRole('button', { name: /^Start/ }).click();
      await card.and(page.locator('[data-status="in_progress"]')).waitFor({ timeout: 15_000 });
      await card.getByRole('button', { name: /^Complete/ }).click();
      await page
        .getByRole('dialog', { name: 'Complete Session LOAN2291?' })
        .getByRole('button', { name: 'Complete the act' })
        .click();
      await card.and(page.locator('[data-status="completed"]')).waitFor({ timeout: 15_000 });
      await shot(page, '3-completed');
      assert.equal((await getSession(account.api_key, session.bn_session_id)).body.status, 'completed');

      const forSession = (r: Array<{ json: any }>) =>
        r.filter((h) => h.json.bn_session_id === session.bn_session_id).map((h) => h.json.event);
      const events = forSession(await suite.receiver.waitFor((r) => forSession(r).length >= 3));
      assert.deepEqual(events, ['notary_assigned', 'session_started', 'session_completed']);

      await waitForSession(account.api_key, session.bn_session_id, (s) => s.documents_status === 'released');
      const [file] = (await downloadAll(account.api_key, session.bn_session_id)).files;
      const certificate = squash(await pdftotext(file.bytes, 2));
      assert.match(certificate, /Date of the act: \w+ \d+, \d{4} at \d+:\d\d [AP]M HA[SD]T \(/, certificate);
    } finally {
      await context.close();
    }
  });

  it('offers Start only when the session allows it, and says why it waits', async () => {
    const account = await createTestAccount();
    const { link } = await notaryByAdminCli('Rita Refused', 'HI', 'HI-1');
    const session = await onDemandSession(account.api_key, 'HI', {
      notarization_id: 'WIT1',
      witnesses: { invited_witness_details: [{ email: 'absent-witness@example.com' }] },
    });
    await signerJoins(session);
    const context = await suite.browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      await page.goto(onTestServer(link.json.login_link));
      await page.locator('#status[data-state="signed-in"]').waitFor({ timeout: 15_000 });
      await page.goto(onTestServer(`${link.json.login_link.split('/auto/')[0]}/notary`));
      const card = page.locator(`section[data-session-id="${session.bn_session_id}"]`);
      await card.and(page.locator('[data-relation="offered"]')).waitFor({ timeout: 30_000 });
      await card.getByRole('button', { name: /^Accept/ }).click();
      await card.and(page.locator('[data-status="ready"]')).waitFor({ timeout: 15_000 });
      assert.equal(
        await card.locator('.waits').textContent(),
        'Start waits: Session cannot be started before its witnesses have joined (0 of 1).',
      );
      assert.equal(
        await card.getByRole('button', { name: /^Start/ }).count(),
        0,
        'no Start the session would refuse',
      );
      await shot(page, '4-refused');
    } finally {
      await context.close();
    }
  });

  it('a network witness joins and checks their ID when the session asks it (issue 12)', async () => {
    const account = await createTestAccount();
    await networkWitness();
    const session = await onDemandSession(account.api_key, 'ME', {
      notarization_id: 'WITID',
      witnesses: { number_of_service_witnesses: 1, service_witness_id_auth_required: true },
    });
    await signerJoins(session);
    const assigned = await waitForSession(account.api_key, session.bn_session_id, (x) =>
      x.participants.some((p: any) => p.role === 'witness'),
    );
    const email = assigned.participants.find((p: any) => p.role === 'witness').email;
    const link = await admin(['network-login-link', `--email=${email}`]);
    assert.equal(link.code, 0, link.stderr);
    const context = await suite.browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      await page.goto(onTestServer(link.json.login_link));
      await page.waitForURL(/\/notary$/, { timeout: 15_000 });
      const card = page.getByRole('region', { name: 'Session WITID' });
      await card.getByRole('button', { name: 'Join as witness: Session WITID' }).click();
      const form = page.getByRole('form', { name: 'Check your ID: Session WITID' });
      await form.waitFor({ timeout: 15_000 });
      await shot(page, '5-witness-id-check');
      await form
        .getByLabel('Front of your ID')
        .setInputFiles({ name: 'id.png', mimeType: 'image/png', buffer: ID_FRONT });
      await form
        .getByLabel('A photo of your face')
        .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: SELFIE });
      await form.getByRole('button', { name: 'Check my ID' }).click();
      await page.locator('#notice[data-state="done"]', { hasText: 'Your identity is verified.' }).waitFor();
      await card.getByText(/ID check passed on attempt 1/).waitFor({ timeout: 15_000 });
      await shot(page, '6-witness-verified');
    } finally {
      await context.close();
    }
  });

  it('a network notary is told to renew a month ahead, that no new sessions are offered once less than a day is left and until when they can complete, and when it has expired until its renewal is recorded', async () => {
    const days = await farJurisdictionDays();
    const signInAs = async (expiresOn: string) => {
      const { email, link } = await notaryByAdminCli('Lena Lastday', 'GU', 'GU-12', expiresOn);
      // The page states times in the notary's own zone: Hawaii's, which keeps no daylight time.
      const context = await suite.browser.newContext({
        viewport: { width: 390, height: 844 },
        locale: 'en-US',
        timezoneId: 'Pacific/Honolulu',
      });
      const page = await context.newPage();
      await page.goto(onTestServer(link.json.login_link));
      await page.waitForURL(/\/notary$/, { timeout: 15_000 });
      await page.locator('#sessions[data-loaded="true"]').waitFor({ timeout: 15_000 });
      return { email, context, page };
    };

    // Guam's today: in force until Guam's midnight, under a day from now whatever the hour.
    const lastDay = await signInAs(days.guam);
    try {
      const standing = lastDay.page.locator('#commission');
      await standing.waitFor({ state: 'visible' });
      // Guam's midnight, 14:00 UTC, is 4 AM the same day in Hawaii.
      const [year, month, day] = days.guam.split('-').map(Number);
      const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
      assert.equal(
        await standing.textContent(),
        `Your commission GU-12 expires on ${days.guam}, less than a day from now: no new sessions are offered to ` +
          `you. Sessions you have accepted can be completed until ${MONTHS[month - 1]} ${day}, ${year}, 4:00 AM HST.`,
      );
      await shot(lastDay.page, '7-commission-last-day');
    } finally {
      await lastDay.context.close();
    }

    // Within a month of the end, the notary is told to renew before offers stop.
    const soon = new Date(Date.parse(`${days.guam}T00:00:00Z`) + 20 * 24 * 3600_000)
      .toISOString()
      .slice(0, 10);
    const renewing = await signInAs(soon);
    try {
      const standing = renewing.page.locator('#commission');
      await standing.waitFor({ state: 'visible' });
      assert.equal(
        await standing.textContent(),
        `Your commission GU-12 expires on ${soon}. Sessions stop being offered to you a day before it ends: renew ` +
          'it to keep receiving them.',
      );
      await shot(renewing.page, '8-commission-renew');
    } finally {
      await renewing.context.close();
    }

    const ended = await signInAs(days.guamYesterday);
    try {
      const standing = ended.page.locator('#commission');
      await standing.waitFor({ state: 'visible' });
      assert.equal(
        await standing.textContent(),
        `Your commission GU-12 expired on ${days.guamYesterday}: no sessions are offered to you until it is renewed.`,
      );
      // The operator records the renewal: the notice goes at the list's next refresh.
      const renewed = await admin([
        'renew-network-notary',
        `--email=${ended.email}`,
        '--commission-number=GU-13',
        '--commission-expires-on=2030-12-31',
      ]);
      assert.equal(renewed.code, 0, renewed.stderr);
      await standing.waitFor({ state: 'hidden', timeout: 15_000 });
    } finally {
      await ended.context.close();
    }
  });

  it('without a sign-in, says how to sign in', async () => {
    const context = await suite.browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(onTestServer('https://x.test/notary'));
      const notice = page.locator('#notice[data-state="signed-out"]');
      await notice.waitFor();
      assert.match((await notice.textContent()) ?? '', /open the login link you were sent/);
    } finally {
      await context.close();
    }
  });
});
