import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { browserAndWebhooks, onTestServer } from '../support/browser';
import { admin } from '../support/adminCli';
import { action, waitForSession } from '../support/sessions';
import { addTeamNotary } from '../support/accounts';
import { subscribe } from '../support/webhookReceiver';
import { ID_FRONT, SELFIE, texasSigner, rightChoice, type KnownFacts } from '../support/identity';
import { readySession, teamAccount, teamBody } from '../sessions/helpers';
import { downloadAll, pdftotext, squash } from '../documents/helpers';

/** Every test writes the screenshots of its steps to a folder named after it, for a person to look at. */
const SCREENSHOTS = path.join(__dirname, '..', '..', '.data', 'screenshots', 'signing-journey');
const PHONE = { width: 390, height: 844 };

const person = texasSigner;
const facts = (p: Record<string, any>): KnownFacts => ({ ...p, state_name: 'Texas' }) as KnownFacts;

describe('the signing page in a real browser (issue 12)', function () {
  this.timeout(180_000);
  const suite = browserAndWebhooks();

  /** A phone-sized page and a screenshot function writing into `folder`. */
  async function phone(
    folder: string,
  ): Promise<{ context: BrowserContext; page: Page; shot: (name: string) => Promise<void> }> {
    const dir = path.join(SCREENSHOTS, folder);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const context = await suite.browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const shot = async (name: string) => {
      await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
    };
    return { context, page, shot };
  }

  const heading = (page: Page, name: string | RegExp) =>
    page.getByRole('heading', { level: 2, name }).waitFor({ timeout: 20_000 });

  async function teamSession(
    signers: Array<Record<string, unknown>>,
    extra: Record<string, unknown> = {},
    account = {},
  ) {
    const team = await teamAccount(account);
    await subscribe(team.apiKey, suite.hookUrl, [
      'identity_verified',
      'kba_failed',
      'id_check_failed',
      'participant_locked_out',
    ]);
    const created = await readySession(
      team.apiKey,
      await teamBody(team.notaryEmail, { all_signers: signers, ...extra }),
    );
    return { ...team, created, id: created.bn_session_id as string };
  }
  const eventsOf = (id: string) =>
    suite.receiver.received.filter((r) => r.json.bn_session_id === id).map((r) => r.json.event as string);

  /** Answers the quiz on the page, as the person would: `right` questions right, the rest wrong. */
  async function answerOnPage(page: Page, who: KnownFacts, right: number) {
    const groups = page.locator('fieldset');
    assert.equal(await groups.count(), 5);
    for (let i = 0; i < 5; i++) {
      const group = groups.nth(i);
      const legend = (await group.locator('legend').innerText()).trim();
      const texts = (await group.locator('label').allInnerTexts()).map((t) => t.trim());
      const question = { id: legend, prompt: legend, choices: texts.map((text) => ({ id: text, text })) };
      const correct = rightChoice(question, who);
      const text = i < right ? correct : texts.find((t) => t !== correct)!;
      await page.getByRole('group', { name: legend }).getByLabel(text, { exact: true }).check();
    }
  }

  it('a KBA signer joins, passes, waits for the notary, follows the session live and sees it complete', async () => {
    const who = person();
    const s = await teamSession([who], {}, { brandColor: '#7b1fa2' });
    const { context, page, shot } = await phone('kba-pass');
    try {
      await page.goto(onTestServer(s.created.full_signing_url));
      await heading(page, 'Join your session');
      assert.match(await page.locator('header').innerText(), /Test account/);
      assert.match(await page.locator('aside').innerText(), /deed\.pdf \(2 pages\)/);
      assert.match(await page.locator('aside').innerText(), /Nora Notary/, 'the named notary is shown');
      await shot('1-join');
      await page.getByRole('button', { name: 'Join the session' }).click();
      await heading(page, 'Check your identity');
      await shot('2-check-identity');
      await page.getByRole('button', { name: 'Start the questions' }).click();
      await heading(page, 'Identity questions');
      await shot('3-questions');
      await answerOnPage(page, facts(who), 5);
      await page.getByRole('button', { name: 'Submit answers' }).click();
      await heading(page, 'Identity verified');
      await shot('4-verified');
      await page.getByRole('button', { name: 'Continue' }).click();
      await heading(page, 'Waiting for your notary');
      assert.equal(await page.locator('#steps li[aria-current="step"]').innerText(), 'Wait');
      await shot('5-waiting');

      assert.equal((await action(s.apiKey, s.id, 'start')).status, 200);
      await heading(page, 'Your session is in progress');
      await shot('6-in-session');
      assert.equal((await action(s.apiKey, s.id, 'complete')).status, 200);
      await page
        .getByRole('heading', { level: 1, name: 'Your notarization is complete' })
        .waitFor({ timeout: 20_000 });
      await shot('7-complete');
    } finally {
      await context.close();
    }
    assert.deepEqual(eventsOf(s.id), ['identity_verified']);
    await waitForSession(s.apiKey, s.id, (x) => x.documents_status === 'released', 60_000);
    // A test-mode account keeps no journal: the certificate states how the identity was established.
    const [signed] = (await downloadAll(s.apiKey, s.id)).files;
    assert.match(
      squash(await pdftotext(signed.bytes)),
      /\(identity established by knowledge-based authentication, passed on attempt 1, /,
    );
  });

  it('a KBA signer fails, retakes, fails again and is locked out', async () => {
    const who = person();
    const s = await teamSession([who]);
    const { context, page, shot } = await phone('kba-lockout');
    try {
      await page.goto(onTestServer(s.created.full_signing_url));
      await page.getByRole('button', { name: 'Join the session' }).click();
      await page.getByRole('button', { name: 'Start the questions' }).click();
      await heading(page, 'Identity questions');
      await answerOnPage(page, facts(who), 3);
      await page.getByRole('button', { name: 'Submit answers' }).click();
      await heading(page, 'Not verified yet');
      assert.match(await page.getByRole('alert').innerText(), /3 of 5 answers were correct; 80 % are needed/);
      await shot('1-failed');
      await page.getByRole('button', { name: 'Continue' }).click();
      await heading(page, 'Check your identity');
      assert.match(await page.locator('main').innerText(), /1 attempt left before a 24-hour lockout/);
      await shot('2-retake-offered');
      await page.getByRole('button', { name: 'Try again' }).click();
      await heading(page, 'Identity questions');
      await answerOnPage(page, facts(who), 1);
      await page.getByRole('button', { name: 'Submit answers' }).click();
      await heading(page, 'Identity check locked');
      await shot('3-locked');
      await page.getByRole('button', { name: 'Continue' }).click();
      // The locked-out step shares its heading with the outcome above: wait for its own text.
      await page
        .locator('main')
        .getByText(/could not be verified after 2 attempts/)
        .waitFor({ timeout: 20_000 });
      await shot('4-locked-page');
    } finally {
      await context.close();
    }
    await suite.receiver.waitFor(() => eventsOf(s.id).length >= 3);
    assert.deepEqual(eventsOf(s.id), ['kba_failed', 'kba_failed', 'participant_locked_out']);
    const refused = await action(s.apiKey, s.id, 'start');
    assert.equal(refused.status, 409);
  });

  it('a biometrics signer checks their ID and a selfie', async () => {
    const s = await teamSession([person({ authentication_type: 'biometrics' })]);
    const { context, page, shot } = await phone('id-check');
    try {
      await page.goto(onTestServer(s.created.full_signing_url));
      await page.getByRole('button', { name: 'Join the session' }).click();
      await heading(page, 'Check your identity');
      await shot('1-id-form');
      await page
        .getByLabel('Front of your ID')
        .setInputFiles({ name: 'id.png', mimeType: 'image/png', buffer: ID_FRONT });
      await page
        .getByLabel('A photo of your face')
        .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: SELFIE });
      await page.getByRole('button', { name: 'Check my ID' }).click();
      await heading(page, 'Identity verified');
      await shot('2-verified');
    } finally {
      await context.close();
    }
    await suite.receiver.waitFor(() => eventsOf(s.id).length >= 1);
    assert.deepEqual(eventsOf(s.id), ['identity_verified']);
  });

  it("the late-notary modal: the session's delay_threshold once the notary is late, with its link actions", async () => {
    const s = await teamSession([person({ authentication_type: 'skip' })], {
      session_configurations: {
        delay_threshold: {
          title: 'Sorry, your notary is running late',
          message: 'We are on it. You can wait here or pick another time.',
          actions: [{ label: 'Pick another time', url: 'https://example.com/reschedule' }],
        },
      },
    });
    const { context, page, shot } = await phone('late-notary');
    try {
      await page.goto(onTestServer(s.created.full_signing_url));
      await page.getByRole('button', { name: 'Join the session' }).click();
      await heading(page, 'Waiting for your notary');
      const dialog = page.getByRole('dialog', { name: 'Sorry, your notary is running late' });
      // NOTARY_LATE_AFTER is 3 s in tests; the page asks every 4 s.
      await dialog.waitFor({ timeout: 20_000 });
      assert.equal(
        await dialog.getByRole('link', { name: 'Pick another time' }).getAttribute('href'),
        'https://example.com/reschedule',
      );
      await shot('1-modal');
      await dialog.getByRole('button', { name: 'Keep waiting' }).click();
      await dialog.waitFor({ state: 'hidden' });
    } finally {
      await context.close();
    }
  });

  it("the account's default modal and brand when the session sets none; an ended session's page says so", async () => {
    const account = await admin([
      'create-account',
      '--name=Lone Star Title',
      '--brand-color=#ffd54f',
      `--delay-threshold=${JSON.stringify({ title: 'Lone Star Title: your notary is delayed', message: 'Call us at 512-555-0100.' })}`,
    ]);
    assert.equal(account.code, 0, account.stderr);
    const notary = await addTeamNotary(account.json.account_id);
    const created = await readySession(
      account.json.api_key,
      await teamBody(notary.email, { all_signers: [person({ authentication_type: 'skip' })] }),
    );
    const { context, page, shot } = await phone('account-default-and-ended');
    try {
      await page.goto(onTestServer(created.full_signing_url));
      const header = page.locator('header');
      assert.equal(
        await header.evaluate((h) => (globalThis as any).getComputedStyle(h).color),
        'rgb(17, 17, 17)',
        'dark text on a light brand',
      );
      await page.getByRole('button', { name: 'Join the session' }).click();
      await page
        .getByRole('dialog', { name: 'Lone Star Title: your notary is delayed' })
        .waitFor({ timeout: 20_000 });
      await shot('1-account-modal');
      assert.equal((await action(account.json.api_key, created.bn_session_id, 'cancel')).status, 200);
      await page
        .getByRole('heading', { level: 1, name: 'This session was cancelled' })
        .waitFor({ timeout: 20_000 });
      await shot('2-cancelled');
    } finally {
      await context.close();
    }
  });
});
