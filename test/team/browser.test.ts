import assert from 'node:assert/strict';
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { createTestAccount } from '../support/accounts';
import { testEnvironment } from '../support/environment';
import { invited, loginLink } from './helpers';

const CHROMIUM = '/usr/bin/chromium';

/** FRONT_URL is a fake host in tests: the same path and query on the API under test. */
function onTestServer(link: string): string {
  const original = new URL(link);
  const url = new URL(testEnvironment().apiUrl);
  url.pathname = original.pathname;
  url.search = original.search;
  return url.toString();
}

describe('the login-link page in a real browser (spec 4.9)', function () {
  this.timeout(60_000);
  let browser: Browser;

  before(async () => {
    if (!fs.existsSync(CHROMIUM)) {
      throw new Error(
        `Chromium is not installed at ${CHROMIUM}: install it with \`apt-get update && apt-get install -y chromium\` ` +
          '(CI installs it); this test never skips.',
      );
    }
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
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
});
