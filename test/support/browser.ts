import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { testEnvironment } from './environment';
import { WebhookReceiver } from './webhookReceiver';
import { CHROMIUM, HEADLESS_CHROMIUM, launchParticipantsBrowser } from '../../demo/participantsBrowser';

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
    args: [...HEADLESS_CHROMIUM, '--disable-quic', '--disable-sync'],
  });
}

/** Chromium with a fake camera and microphone, for the live room (demo/liveAct.ts); it never skips. */
export const launchMediaBrowser = launchParticipantsBrowser;

/** FRONT_URL is a fake host in tests: the same path and query on the API under test. */
export function onTestServer(link: string): string {
  const original = new URL(link);
  const url = new URL(testEnvironment().apiUrl);
  url.pathname = original.pathname;
  url.search = original.search;
  return url.toString();
}

/** A suite's headless Chromium and webhook receiver: started before its tests, stopped after them. */
export function browserAndWebhooks() {
  const suite = { browser: undefined as unknown as Browser, hookUrl: '', receiver: new WebhookReceiver() };
  before(async () => {
    suite.browser = await launchBrowser();
    suite.hookUrl = await suite.receiver.start();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.receiver.stop();
  });
  return suite;
}
