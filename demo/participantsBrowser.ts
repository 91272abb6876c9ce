import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
/** Headless, no sandbox (root in CI), no GPU, and nothing of its own on the network. */
export const HEADLESS_CHROMIUM = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
];
/**
 * A fake camera as small as a phone's thumbnail (320×240, 10 fps, made once by FFmpeg): every
 * participant's browser runs on this one machine, and their encoders should not starve the service.
 */
function fakeCamera(): string {
  const file = path.join(os.tmpdir(), 'notarization-fake-camera-320x240-10fps.y4m');
  if (!fs.existsSync(file)) {
    const partial = `${file}.${process.pid}`;
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=10',
      '-t',
      '4',
      '-pix_fmt',
      'yuv420p',
      '-f',
      'yuv4mpegpipe',
      '-y',
      partial,
    ]);
    fs.renameSync(partial, file);
  }
  return file;
}

/**
 * Chromium whose camera (a test pattern) and microphone (a tone) are fake devices: `granted` answers the
 * permission prompt with yes, otherwise it is refused as a participant who says no. Loopback ICE
 * candidates are offered as addresses, not mDNS names, which nothing here resolves.
 */
export function launchParticipantsBrowser({ granted = true } = {}): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM))
    throw new Error(`Chromium is not installed at ${CHROMIUM} (apt-get install chromium)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      ...HEADLESS_CHROMIUM,
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${fakeCamera()}`,
      ...(granted ? ['--use-fake-ui-for-media-stream'] : []),
      '--disable-features=WebRtcHideLocalIpsWithMdns',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
}
