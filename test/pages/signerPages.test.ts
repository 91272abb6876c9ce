import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, onTestServer } from '../support/browser';
import { admin } from '../support/adminCli';
import { addTeamNotary } from '../support/accounts';
import { request } from '../support/http';
import { action, tokenOf, waitForSession } from '../support/sessions';
import { ID_FRONT, SELFIE, texasSigner, answers, photo, type KnownFacts } from '../support/identity';
import { readySession, teamAccount, teamBody } from '../sessions/helpers';
import { eventually } from '../support/eventually';
import { PHONE, lookAt } from './pageShots';

const person = texasSigner;

const journeyOf = async (url: string) =>
  (await request(`/sign/${tokenOf(url)}`, { headers: { accept: 'application/json' } })).body;

describe('the signer’s pages, finished unaided (issue 62)', function () {
  this.timeout(240_000);
  let browser: Browser;

  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  async function phonePage(timezoneId = 'America/Chicago'): Promise<Page> {
    const context = await browser.newContext({ viewport: PHONE, timezoneId });
    return context.newPage();
  }
  const heading = (page: Page, name: string | RegExp) =>
    page.getByRole('heading', { level: 2, name }).waitFor({ timeout: 20_000 });
  const currentStep = (page: Page) => page.locator('#steps li[aria-current="step"]').innerText();

  async function kbaSession(signerExtra: Record<string, unknown> = {}, account = {}) {
    const team = await teamAccount(account);
    const who = person(signerExtra);
    const created = await readySession(team.apiKey, await teamBody(team.notaryEmail, { all_signers: [who] }));
    return { ...team, who, created, url: created.full_signing_url as string };
  }

  it('speaks plainly, shows only the steps this signer has, in the brand’s colour, with touch-sized choices', async () => {
    const s = await kbaSession({}, { brandColor: '#7b1fa2' });
    const page = await phonePage();
    try {
      await page.goto(onTestServer(s.url));
      await heading(page, 'Join your session');
      assert.equal(await currentStep(page), 'Join', 'before joining, joining is the current step');
      assert.deepEqual(await page.locator('#steps li').allInnerTexts(), [
        'Join',
        'Identity',
        'Wait',
        'Sign',
        'Done',
      ]);
      const aside = await page.locator('aside').innerText();
      assert.match(aside, new RegExp(`Signing as\\s+Sam ${s.who.last_name}`));
      assert.doesNotMatch(aside, /Signer 1/);
      const join = page.getByRole('button', { name: 'Join the session' });
      assert.equal(
        await join.evaluate((b) => (globalThis as any).getComputedStyle(b).backgroundColor),
        'rgb(123, 31, 162)',
      );
      for (const li of await page.locator('#steps li').all()) {
        const { height } = (await li.boundingBox())!;
        assert.ok(height <= 2 * 22 + 12, `a step label on two lines at most (${height} px)`);
      }
      await lookAt(page, 'signer-1-join');
      await join.click();
      await heading(page, 'Check your identity');
      assert.equal(await currentStep(page), 'Identity');
      await lookAt(page, 'signer-2-kba-intro');
      await page.getByRole('button', { name: 'Start the questions' }).click();
      await heading(page, 'Identity questions');
      const row = (await page.locator('.choice').first().boundingBox())!;
      assert.ok(row.height >= 44, `a quiz row is a touch target (${row.height} px)`);
      const radio = (await page.locator('.choice input').first().boundingBox())!;
      assert.ok(radio.width >= 20 && radio.height >= 20, `radio ${radio.width}×${radio.height}`);
      await lookAt(page, 'signer-3-quiz');
    } finally {
      await page.context().close();
    }

    // A signer the session asks no check of has no identity step.
    const team = await teamAccount();
    const created = await readySession(
      team.apiKey,
      await teamBody(team.notaryEmail, { all_signers: [person({ authentication_type: 'skip' })] }),
    );
    const skip = await phonePage();
    try {
      await skip.goto(onTestServer(created.full_signing_url));
      await heading(skip, 'Join your session');
      assert.deepEqual(await skip.locator('#steps li').allInnerTexts(), ['Join', 'Wait', 'Sign', 'Done']);
      await skip.getByRole('button', { name: 'Join the session' }).click();
      await heading(skip, 'Waiting for your notary');
      assert.equal(await currentStep(skip), 'Wait');
    } finally {
      await skip.context().close();
    }
  });

  it('keeps the KBA time limit in view, warns before the end, and takes the form away at 0:00', async () => {
    const s = await kbaSession();
    const page = await phonePage();
    try {
      await page.clock.install();
      await page.goto(onTestServer(s.url));
      await page.getByRole('button', { name: 'Join the session' }).click();
      await page.getByRole('button', { name: 'Start the questions' }).click();
      await heading(page, 'Identity questions');
      const timer = page.getByRole('timer');
      assert.match(await timer.innerText(), /^Time left: [12]:\d\d$/);
      // Scrolled to the last answer, the time left is still on screen.
      await page.getByRole('button', { name: 'Submit answers' }).scrollIntoViewIfNeeded();
      const box = (await timer.boundingBox())!;
      assert.ok(box.y >= 0 && box.y + box.height <= PHONE.height, `the timer stays in view (y ${box.y})`);

      await page.clock.fastForward(65_000);
      await page.getByRole('alert').filter({ hasText: 'One minute left' }).waitFor();
      assert.equal(await timer.getAttribute('data-urgent'), 'true');
      await lookAt(page, 'signer-4-quiz-last-minute');

      await page.clock.fastForward(60_000);
      await heading(page, 'Time is up');
      assert.equal(await page.locator('input[type=radio]').count(), 0, 'no answers to send once time is up');
      assert.equal(await page.getByRole('button', { name: 'Submit answers' }).count(), 0);
      await lookAt(page, 'signer-5-time-up');
    } finally {
      await page.context().close();
    }
    assert.equal((await journeyOf(s.url)).identity.attempts, 1, 'nothing was sent after the time limit');
  });

  it('checks an ID from previewed photos of a stated size, refusing a small one before it costs an attempt', async () => {
    const team = await teamAccount();
    const who = person({
      authentication_type: 'biometrics',
      email: `id+id-rejected-${crypto.randomUUID().slice(0, 6)}@example.com`,
    });
    const created = await readySession(team.apiKey, await teamBody(team.notaryEmail, { all_signers: [who] }));
    const url = created.full_signing_url as string;
    const small = photo(200, 120, 'ID');
    const page = await phonePage();
    try {
      await page.goto(onTestServer(url));
      await page.getByRole('button', { name: 'Join the session' }).click();
      await heading(page, 'Check your identity');
      assert.match(await page.locator('.photo').first().innerText(), /at least 300 × 190 pixels/);
      assert.equal(await page.getByLabel('A photo of your face').getAttribute('capture'), 'user');
      assert.equal(await page.getByLabel('Front of your ID').getAttribute('capture'), 'environment');
      await page
        .getByLabel('Front of your ID')
        .setInputFiles({ name: 'id.png', mimeType: 'image/png', buffer: small });
      await page.getByRole('img', { name: 'Preview: Front of your ID' }).waitFor();
      await page.getByText(/This photo is 200 × 120 pixels, too small to check/).waitFor();
      await page
        .getByLabel('A photo of your face')
        .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: SELFIE });
      await lookAt(page, 'signer-6-id-photo-too-small');
      await page.getByRole('button', { name: 'Check my ID' }).click();
      assert.equal((await journeyOf(url)).identity.attempts, 0, 'a small photo is refused on the device');

      await page
        .getByLabel('Front of your ID')
        .setInputFiles({ name: 'id.png', mimeType: 'image/png', buffer: ID_FRONT });
      await page.getByRole('img', { name: 'Preview: Front of your ID' }).waitFor();
      await lookAt(page, 'signer-7-id-previews');
      await page.getByRole('button', { name: 'Check my ID' }).click();
      await heading(page, 'Not verified yet');
      assert.equal(
        await page.locator('#live').innerText(),
        '',
        '"Checking your ID…" is gone with the answer',
      );
      await page.getByRole('button', { name: 'Continue' }).click();
      await heading(page, 'Check your identity');
      assert.match(await page.locator('main').innerText(), /1 attempt left before a 24-hour lockout/);
      await lookAt(page, 'signer-8-id-retry');
    } finally {
      await page.context().close();
    }
    // Through the API too: refused before the provider, no attempt used.
    const refused = await request(`/sign/${tokenOf(url)}/identity/id_check`, {
      body: { id_front: small.toString('base64'), selfie: SELFIE.toString('base64') },
    });
    assert.equal(refused.status, 422, refused.text);
    assert.match(refused.body.response_message, /^Retake the photo: the front of the ID is 200×120 pixels/);
    assert.equal((await journeyOf(url)).identity.attempts, 1);
  });

  it('the late-notary modal focuses Keep waiting, shows its actions as secondary, and may call the office', async () => {
    const team = await teamAccount();
    const created = await readySession(
      team.apiKey,
      await teamBody(team.notaryEmail, {
        all_signers: [person({ authentication_type: 'skip' })],
        session_configurations: {
          delay_threshold: {
            title: 'Your notary is running late',
            message: 'We are sorry for the wait.',
            actions: [
              { label: 'Call our office', url: 'tel:+14095550188' },
              { label: 'Pick another time', url: 'https://example.com/reschedule' },
            ],
          },
        },
      }),
    );
    const page = await phonePage();
    try {
      await page.goto(onTestServer(created.full_signing_url));
      await page.getByRole('button', { name: 'Join the session' }).click();
      const dialog = page.getByRole('dialog', { name: 'Your notary is running late' });
      await dialog.waitFor({ timeout: 20_000 });
      assert.equal(await page.evaluate('document.activeElement.textContent'), 'Keep waiting');
      const call = dialog.getByRole('link', { name: 'Call our office' });
      assert.equal(await call.getAttribute('href'), 'tel:+14095550188');
      const background = (l: typeof call) =>
        l.evaluate((n) => (globalThis as any).getComputedStyle(n).backgroundColor);
      assert.equal(await background(call), 'rgb(255, 255, 255)', 'an action is a secondary link');
      assert.notEqual(
        await background(dialog.getByRole('button', { name: 'Keep waiting' })),
        'rgb(255, 255, 255)',
      );
      await lookAt(page, 'signer-9-late-notary');
    } finally {
      await page.context().close();
    }
    const refused = await request('/api/integrationsv2/sessions', {
      auth: team.apiKey,
      body: await teamBody(team.notaryEmail, {
        session_configurations: {
          delay_threshold: { actions: [{ label: 'x', url: 'tel:javascript:alert(1)' }] },
        },
      }),
    });
    // Create's validation answers 403 with the spec's body (spec 7.1).
    assert.equal(refused.status, 403, refused.text);
    assert.match(refused.body.response_message, /must be a phone number such as tel:\+14095550188/);
  });

  it('a locked-out signer reads the time in their zone, what to do next and whom to call', async () => {
    const s = await kbaSession(
      {},
      {
        delayThreshold: { actions: [{ label: 'Call Lone Star Title', url: 'tel:+15125550100' }] },
      },
    );
    const token = tokenOf(s.url);
    await request(`/sign/${token}/join`, { method: 'POST', headers: { accept: 'application/json' } });
    for (let attempt = 0; attempt < 2; attempt++) {
      const quiz = await request(`/sign/${token}/identity/kba`, { body: {} });
      const facts = { ...s.who, state_name: 'Texas' } as KnownFacts;
      await request(`/sign/${token}/identity/kba/${quiz.body.check_id}/answers`, {
        body: { answers: answers(quiz.body, facts, 0) },
      });
    }
    const page = await phonePage('America/Chicago');
    try {
      await page.goto(onTestServer(s.url));
      await heading(page, 'Identity check locked');
      const text = await page.locator('main').innerText();
      assert.match(text, /you can try again after \w{3} \d+, \d{4}, \d+:\d\d [AP]M C[SD]T/);
      assert.match(text, /What you can do now/);
      assert.match(text, /contact Test account/);
      assert.equal(
        await page.getByRole('link', { name: 'Call Lone Star Title' }).getAttribute('href'),
        'tel:+15125550100',
      );
      await lookAt(page, 'signer-10-locked-out');
    } finally {
      await page.context().close();
    }
  });

  it('after the end, the signing link and the summary carry the account’s brand and logo, and lead to each other', async () => {
    const account = await admin([
      'create-account',
      '--name=Lone Star Title',
      '--brand-color=#0d47a1',
      '--test-mode',
    ]);
    assert.equal(account.code, 0, account.stderr);
    const logo = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'logo-')), 'logo.png');
    fs.writeFileSync(logo, photo(240, 80, 'LST'));
    const branded = await admin(['set-branding', `--account=${account.json.account_id}`, `--logo=${logo}`]);
    assert.equal(branded.code, 0, branded.stderr);
    assert.equal(branded.json.logo, 'set');
    const tooBig = path.join(path.dirname(logo), 'big.png');
    fs.writeFileSync(tooBig, Buffer.concat([photo(240, 80, 'X'), Buffer.alloc(210 * 1024)]));
    assert.equal(
      (await admin(['set-branding', `--account=${account.json.account_id}`, `--logo=${tooBig}`])).code,
      2,
    );
    const nobody = await admin(['set-branding', `--account=${crypto.randomUUID()}`, '--brand-color=#123456']);
    assert.equal(nobody.code, 1);
    assert.match(nobody.stderr, /No account /);

    const notary = await addTeamNotary(account.json.account_id);
    const created = await readySession(
      account.json.api_key,
      await teamBody(notary.email, { all_signers: [person({ authentication_type: 'skip' })] }),
    );
    const page = await phonePage();
    try {
      await page.goto(onTestServer(created.full_signing_url));
      await page.getByRole('img', { name: 'Lone Star Title' }).waitFor();
      await page.getByRole('button', { name: 'Join the session' }).click();
      await heading(page, 'Waiting for your notary');
      await lookAt(page, 'signer-11-waiting');
      assert.equal((await action(account.json.api_key, created.bn_session_id, 'cancel')).status, 200);
      await page
        .getByRole('heading', { level: 1, name: 'This session was cancelled' })
        .waitFor({ timeout: 20_000 });
      await page.getByRole('img', { name: 'Lone Star Title' }).waitFor();
      await lookAt(page, 'signer-12-ended-cancelled');
    } finally {
      await page.context().close();
    }
  });

  it('a completed session’s link says so without promising a release that happened, and links its summary', async () => {
    const team = await teamAccount({ brandColor: '#2e7d32' });
    const created = await readySession(
      team.apiKey,
      await teamBody(team.notaryEmail, { all_signers: [person({ authentication_type: 'skip' })] }),
    );
    await request(`/sign/${tokenOf(created.full_signing_url)}/join`, {
      method: 'POST',
      headers: { accept: 'application/json' },
    });
    assert.equal((await action(team.apiKey, created.bn_session_id, 'start')).status, 200);
    assert.equal((await action(team.apiKey, created.bn_session_id, 'complete')).status, 200);
    await waitForSession(
      team.apiKey,
      created.bn_session_id,
      (x) => x.documents_status === 'released',
      60_000,
    );
    const page = await phonePage();
    try {
      await page.goto(onTestServer(created.full_signing_url));
      await page.getByRole('heading', { level: 1, name: 'Your notarization is complete' }).waitFor();
      assert.match(await page.locator('header').innerText(), /Test account/);
      assert.doesNotMatch(await page.locator('main').innerText(), /once the notary releases them/);
      await lookAt(page, 'signer-13-ended-completed');
      const summary = page.getByRole('link', { name: 'See your session summary and documents' });
      await page.goto(onTestServer((await summary.getAttribute('href'))!));
      await page
        .getByRole('heading', { level: 1, name: /Thank you: your notarization is complete/ })
        .waitFor();
      assert.match(await page.locator('header').innerText(), /Test account/);
      await eventually(
        () => page.locator('#documents-status').getAttribute('data-status'),
        (s) => s === 'released',
        'the summary to say the documents went out',
      );
      await lookAt(page, 'signer-14-completion');
    } finally {
      await page.context().close();
    }
  });
});
