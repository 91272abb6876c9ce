import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { testEnvironment } from './environment';

const CHROMIUM = '/usr/bin/chromium';

/** Headless Chromium for the tests of pages; it never skips: a missing browser fails the test. */
export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}: install it with \`apt-get update && apt-get install -y chromium\` ` +
        '(CI installs it); this test never skips.',
    );
  }
  return chromium.launch({
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
}

/**
 * Chromium with a fake camera and microphone (a test pattern and a tone), for the live room: `granted`
 * answers the permission prompt with yes, otherwise it is refused as a participant who says no.
 * Loopback ICE candidates are offered as addresses, not mDNS names, which nothing here resolves.
 */
export async function launchMediaBrowser({ granted = true } = {}): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM))
    throw new Error(`Chromium is not installed at ${CHROMIUM}; this test never skips.`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--use-fake-device-for-media-stream',
      ...(granted ? ['--use-fake-ui-for-media-stream'] : []),
      '--disable-features=WebRtcHideLocalIpsWithMdns',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
}

/** FRONT_URL is a fake host in tests: the same path and query on the API under test. */
export function onTestServer(link: string): string {
  const original = new URL(link);
  const url = new URL(testEnvironment().apiUrl);
  url.pathname = original.pathname;
  url.search = original.search;
  return url.toString();
}
