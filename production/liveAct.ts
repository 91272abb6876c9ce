import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { beginLiveAct, recordingOf } from '../demo/liveAct';
import { liveParty } from '../demo/liveParty';
import { pdfBytes } from '../test/support/documents';
import { launchParticipantsBrowser } from '../demo/participantsBrowser';

/**
 * One live act on the production shape: a live account made with the admin CLI, a signer and a notary in
 * headless Chromium with fake cameras, the room on the compose Janus, the recording stored in S3 and
 * fetched back through its expiring link. What it measured, as one line.
 */
export async function verifyLiveAct(
  env: NodeJS.ProcessEnv,
  apiUrl: string,
  s3Endpoint: string,
): Promise<string> {
  const account = JSON.parse(
    execFileSync(
      process.execPath,
      [
        path.join(__dirname, '..', 'dist', 'scripts', 'admin.js'),
        'create-account',
        '--name',
        'Verify live',
        '--auto-onboarding',
      ],
      { env },
    ).toString(),
  ) as { api_key: string; vendor_api_key: string; test_mode: boolean };
  if (account.test_mode) throw new Error('create-account made a test-mode account by default');
  const party = await liveParty(apiUrl, account);
  const browser = await launchParticipantsBrowser();
  let act;
  try {
    act = await beginLiveAct(browser, party, await pdfBytes(1));
    await act.complete();
  } finally {
    await browser.close();
  }
  const recording = await recordingOf(party, act.id);
  if (!recording.download_url.startsWith(s3Endpoint))
    throw new Error(`the recording's link is not S3's: ${recording.download_url}`);
  const bytes = Buffer.from(await (await fetch(recording.download_url)).arrayBuffer());
  const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
  if (sha256 !== recording.sha256)
    throw new Error(`the recording from S3 hashes to ${sha256}, not ${recording.sha256}`);
  return (
    `a live act through the compose Janus: first remote frame ${act.startToFirstFrameMs} ms after the start; ` +
    `recording ${recording.duration_seconds} s, ${recording.size_bytes} bytes, fetched from S3 with its sha256`
  );
}
