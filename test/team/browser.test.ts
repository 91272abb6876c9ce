import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launchBrowser, onTestServer } from '../support/browser';
import { createTestAccount } from '../support/accounts';
import { assertAccessible } from '../support/accessibility';
import { request } from '../support/http';
import {
  commissionConfirmation,
  invite,
  inviteBody,
  invited,
  loginLink,
  memberToken,
  TEAM,
  uniqueEmail,
} from './helpers';

describe('the login-link page in a real browser (spec 4.9)', function () {
  this.timeout(60_000);
  let browser: Browser;

  before(async () => {
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
  });

  it('signs the member in automatically and shows who is signed in', async () => {
    const account = await createTestAccount();
    const m = await invited(account.vendor_api_key, { first_name: 'Beatrix', last_name: 'Browser' });
    const link = await loginLink(account.vendor_api_key, m.email);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const response = await page.goto(onTestServer(link.body.login_link));
      assert.equal(response?.status(), 200);
      const status = page.locator('#status[data-state="signed-in"]');
      await status.waitFor({ timeout: 15_000 });
      assert.match((await status.textContent()) ?? '', /Beatrix Browser/);
      // The link is reusable: a second visit signs in again.
      const again = await context.newPage();
      await again.goto(onTestServer(link.body.login_link));
      await again.locator('#status[data-state="signed-in"]').waitFor({ timeout: 15_000 });
    } finally {
      await context.close();
    }
  });

  it('a wrong key shows the failure', async () => {
    const account = await createTestAccount();
    const m = await invited(account.vendor_api_key);
    const link = await loginLink(account.vendor_api_key, m.email);
    const wrong = new URL(onTestServer(link.body.login_link));
    wrong.searchParams.set('key', `${link.key}wrong`);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(wrong.toString());
      const status = page.locator('#status[data-state="failed"]');
      await status.waitFor({ timeout: 15_000 });
      assert.doesNotMatch((await status.textContent()) ?? '', new RegExp(m.name));
      assert.equal(await page.locator('#status[data-state="signed-in"]').count(), 0);
    } finally {
      await context.close();
    }
  });

  it('the commission confirmation page confirms with its one button, and says so', async () => {
    const a = await createTestAccount({ autoOnboarding: true });
    const email = uniqueEmail('confirming');
    const member = await invite(
      a.vendor_api_key,
      inviteBody({
        email,
        state: 'TX',
        county: 'Travis',
        commission_number: 'TX-OLD-7',
        commission_expires_on: '2027-01-31',
      }),
    );
    const renewal = {
      state: 'TX',
      county: 'Travis',
      commission_number: 'TX-NEW-8',
      commission_expires_on: '2031-01-31',
    };
    const asked = await request('/api/integrationsv2/notary/onboarding', {
      auth: await memberToken(a.vendor_api_key, email),
      body: renewal,
    });
    assert.equal(asked.status, 202, asked.text);
    const { url } = await commissionConfirmation(email);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(onTestServer(url.toString()));
      await assertAccessible(page, 'the commission confirmation page');
      await page.getByRole('button', { name: 'Confirm this commission' }).click();
      const status = page.locator('#status[data-state="confirmed"]');
      await status.waitFor({ timeout: 15_000 });
      assert.equal(
        await status.textContent(),
        'Confirmed: your commission is recorded and your seal renewed.',
      );
      const seal = await request(`${TEAM}/${member.body.user_data.id}/seal.svg`, { auth: a.vendor_api_key });
      assert.ok(seal.text.includes('TX-NEW-8'), seal.text);
    } finally {
      await context.close();
    }
  });
});
