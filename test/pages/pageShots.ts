import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { assertAccessible } from '../support/accessibility';

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };

const SCREENSHOTS = path.join(__dirname, '..', '..', '.data', 'screenshots', 'pages');

/**
 * The page as it stands, checked by axe-core and photographed at phone and desktop widths
 * (`.data/screenshots/pages/<name>-phone.png`, `-desktop.png`), for a person to look at.
 */
export async function lookAt(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await assertAccessible(page, name);
  const viewport = page.viewportSize() ?? PHONE;
  for (const [width, size] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(viewport);
}
