import type { Page } from 'playwright-core';

/**
 * Draws a zigzag across a pad, as a finger or a mouse would. Each point is placed on the pad as it is
 * then, visible and not under the room docked over the page, so a page moving under the hand moves the
 * stroke with it.
 */
export async function drawOn(page: Page, name: string): Promise<void> {
  const pad = page.locator('#signing').getByRole('img', { name });
  await pad.evaluate((node) => node.scrollIntoView({ block: 'center' }));
  const { width, height } = (await pad.boundingBox())!;
  await pad.hover({ position: { x: 10, y: height * 0.6 } });
  await page.mouse.down();
  for (let i = 1; i <= 12; i++)
    await pad.hover({ position: { x: 10 + ((width - 20) * i) / 12, y: height * (i % 2 ? 0.3 : 0.7) } });
  await page.mouse.up();
}

/** A wait that, when it fails, says what the page said instead (a refusal, a pause naming who is off camera). */
async function saying(page: Page, wait: Promise<void>): Promise<void> {
  await wait.catch(async (err: Error) => {
    const said = await page
      .locator('#signing .signing-status')
      .textContent({ timeout: 1_000 })
      .catch(() => '');
    throw new Error(`${err.message.split('\n')[0]}; the page's status: ${JSON.stringify(said)}`);
  });
}

/**
 * A signer's part on their page, as a person does it: consent, a typed (or drawn) signature and initials
 * adopted, then every "Sign here" / "Initial here" of theirs tapped until none is left.
 */
export async function signInPage(
  page: Page,
  how: 'typed' | 'drawn' = 'typed',
  {
    timeoutMs = 60_000,
    shown,
  }: { timeoutMs?: number; shown?: (step: 'consent' | 'adoption' | 'document') => Promise<void> } = {},
) {
  const signing = page.locator('#signing');
  const agree = signing.getByRole('button', { name: 'I agree to sign electronically' });
  await agree.waitFor({ timeout: timeoutMs });
  await shown?.('consent');
  await agree.click();
  await signing.getByRole('heading', { name: /^Adopt your signature/ }).waitFor({ timeout: timeoutMs });
  if (how === 'drawn') {
    await signing.getByLabel('Draw it').check();
    await drawOn(page, 'Draw your signature here');
    await drawOn(page, 'Draw your initials here');
  }
  await shown?.('adoption');
  await signing.getByRole('button', { name: 'Adopt and continue' }).click();
  if (shown) {
    await saying(page, signing.locator('.place-nav').waitFor({ timeout: timeoutMs }));
    await shown('document');
  }
  await applyAllInPage(page, timeoutMs);
}

/** Taps each of the participant's places in turn, until the page says every place is signed. */
export async function applyAllInPage(page: Page, timeoutMs = 60_000) {
  const signing = page.locator('#signing');
  const done = signing.getByText('You have signed every place');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const next = signing.locator('button.place.mine:not([disabled])').first();
    await saying(page, next.or(done).waitFor({ timeout: Math.max(1, deadline - Date.now()) }));
    if (await done.isVisible()) return;
    // A place redrawn under the tap (a pause while someone's video drops, the others' progress) is
    // tapped again once the page is still, within the whole signing's deadline rather than a tap's own.
    await next.click({ timeout: Math.max(1, deadline - Date.now()) });
    await signing.locator('button.place.mine[disabled]').waitFor({ state: 'detached', timeout: timeoutMs });
  }
}

/**
 * The notary, in the console, confirms who each signer with no identity check is (by personal knowledge,
 * or by a credible witness named), as a live act asks before they sign.
 */
export async function identifyInConsole(page: Page, witness?: string, timeoutMs = 30_000) {
  const confirm = page.getByRole('button', { name: /^Confirm identity of / });
  await confirm.first().waitFor({ timeout: timeoutMs });
  while ((await confirm.count()) > 0) {
    const form = page.locator('form.identify').first();
    if (witness) {
      await form.getByRole('combobox').selectOption('credible_witness');
      await form.getByRole('textbox').fill(witness);
    }
    const before = await confirm.count();
    await form.getByRole('button').click();
    await page.getByRole('button', { name: /^I attest: identify / }).click();
    // The pages' policy allows no eval: wait on the DOM, for the list to hold one form fewer.
    await page
      .locator('form.identify')
      .nth(before - 1)
      .waitFor({ state: 'detached', timeout: timeoutMs });
  }
}

/** The notary adopts their signature in the console's "Your signature", in a handwriting style. */
export async function adoptInConsole(page: Page, name = 'Nora Notary', timeoutMs = 30_000) {
  const section = page.getByRole('region', { name: 'Your signature' });
  await section.getByRole('button', { name: /(Adopt|Change) your signature/ }).click({ timeout: timeoutMs });
  const dialog = page.getByRole('dialog', { name: 'Adopt your signature' });
  await dialog.getByLabel('Your name as you sign it').fill(name);
  await dialog.getByText('Formal').click();
  await dialog.getByRole('button', { name: 'Adopt this signature' }).click();
  // In the act the section steps aside once adopted: the console's status line says it is done.
  await page
    .getByText('Your signature is adopted: your acts are signed with it.')
    .waitFor({ timeout: timeoutMs });
}
