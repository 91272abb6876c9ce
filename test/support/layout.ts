import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';

/**
 * What a person sees at the page's default zoom (issue 70): text large enough to read, targets large
 * enough for a finger, labels whole. Measured in the browser from computed styles and laid-out boxes.
 */
const MEASURE = `(([scope, minText, minTarget]) => {
  const root = document.querySelector(scope);
  if (!root) return { small: [], targets: [], clipped: [] };
  const seen = (e) => {
    const r = e.getBoundingClientRect();
    const s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && !e.closest('[hidden]');
  };
  const name = (e) => (e.getAttribute('aria-label') || e.textContent || e.tagName).trim().slice(0, 60);
  const small = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const parent = t.parentElement;
    if (!t.textContent.trim() || !parent || !seen(parent)) continue;
    const size = parseFloat(getComputedStyle(parent).fontSize);
    if (size < minText) small.push(size + 'px: ' + t.textContent.trim().slice(0, 60));
  }
  // A radio or checkbox is hit through its label, which is what is measured.
  const hits = [...root.querySelectorAll('button, a[href], select, input:not([type=radio]):not([type=checkbox]), label:has(input[type=radio]), label:has(input[type=checkbox])')];
  const targets = hits.filter(seen).flatMap((e) => {
    const r = e.getBoundingClientRect();
    return r.width + 0.5 < minTarget || r.height + 0.5 < minTarget ? [Math.round(r.width) + 'x' + Math.round(r.height) + ': ' + name(e)] : [];
  });
  const clipped = [...root.querySelectorAll('.place')].filter(seen).flatMap((e) =>
    e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1 ? [name(e)] : []);
  return { small, targets, clipped };
})`;

export async function assertReadableAndTappable(
  page: Page,
  what: string,
  { scope = 'body', targetsIn = scope }: { scope?: string; targetsIn?: string } = {},
): Promise<void> {
  const text = (await page.evaluate(`${MEASURE}(${JSON.stringify([scope, 12, 0])})`)) as {
    small: string[];
    clipped: string[];
  };
  assert.deepEqual(text.small, [], `${what}: text under 12 px`);
  assert.deepEqual(text.clipped, [], `${what}: place labels cut off`);
  const hits = (await page.evaluate(`${MEASURE}(${JSON.stringify([targetsIn, 12, 44])})`)) as {
    targets: string[];
  };
  assert.deepEqual(hits.targets, [], `${what}: targets under 44×44 px`);
}

/** The element is wholly inside the first viewport: seen without scrolling the page. */
export async function assertInFirstViewport(page: Page, target: Locator, what: string): Promise<void> {
  await page.evaluate('window.scrollTo(0, 0)');
  const box = await target.boundingBox();
  const viewport = page.viewportSize()!;
  assert.ok(box, `${what}: not laid out`);
  assert.ok(
    box.y >= 0 && box.y + box.height <= viewport.height && box.x >= 0 && box.x + box.width <= viewport.width,
    `${what}: at ${JSON.stringify(box)}, outside the first ${viewport.width}×${viewport.height} viewport`,
  );
}
