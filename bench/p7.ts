import crypto from 'node:crypto';
import { createAccount } from '../src/accounts/accounts';
import { inviteCommissionedNotary } from '../faults/driver';
import { beginLiveAct, recordingOf, type LiveParty } from '../demo/liveAct';
import { record, percentile, say } from './report';
import type { Stack } from './stack';
import { launchParticipantsBrowser } from '../demo/participantsBrowser';

const SESSIONS = 3;
/** Each session's signers; with the notary, three participants on camera. */
const SIGNERS = 2;
const TARGET_FIRST_FRAME_MS = 2_000;
/** How long the rooms are measured with everyone in them. */
const MEASURE_S = 20;

/** A live account with one commissioned team notary per session. */
async function liveParties(stack: Stack): Promise<LiveParty[]> {
  const account = await createAccount(stack.sequelize, { name: 'Live bench', autoOnboarding: true });
  return Promise.all(
    Array.from({ length: SESSIONS }, async (_, i) => {
      const party = {
        apiUrl: stack.apiUrl,
        apiKey: account.api_key,
        vendorKey: account.vendor_api_key,
        notaryEmail: `live-notary-${i}-${crypto.randomBytes(3).toString('hex')}@example.com`,
      };
      await inviteCommissionedNotary(stack.apiUrl, party.vendorKey, {
        email: party.notaryEmail,
        firstName: 'Live',
        lastName: `Notary${i}`,
        commissionNumber: `TX-70000${i}`,
      });
      return party;
    }),
  );
}

/**
 * P7: live rooms on the stack's Janus, 3 sessions of 3 participants at once (headless Chromium, fake
 * cameras): the notary's start → the first remote video frame on the signer's page, Janus's CPU per
 * participant while all are in their rooms, and the recordings' bytes per minute.
 */
export async function p7LiveRooms(stack: Stack, deed: Buffer) {
  const parties = await liveParties(stack);
  const browser = await launchParticipantsBrowser();
  try {
    // Notaries start one after another, each while the rooms started before are live: the last start is
    // measured with 6 others on camera (all at the same instant, 9 browsers booting on this one machine
    // measure the machine's CPU, not the service).
    const acts = [];
    for (const party of parties) acts.push(await beginLiveAct(browser, party, deed, SIGNERS));
    const firstFrames = acts.map((a) => a.startToFirstFrameMs);
    const cpu0 = stack.mediaCpu();
    const t0 = Date.now();
    await new Promise((r) => setTimeout(r, MEASURE_S * 1000));
    const cpuPercent = ((stack.mediaCpu() - cpu0) / ((Date.now() - t0) / 1000)) * 100;
    await Promise.all(acts.map((a) => a.complete()));
    const recordings = await Promise.all(acts.map((a, i) => recordingOf(parties[i], a.id)));
    const perMinute = recordings.map((r) => (r.size_bytes / r.duration_seconds) * 60);
    say(
      `P7 first frames: ${firstFrames.join(', ')} ms; recordings: ${recordings.map((r) => `${r.duration_seconds} s/${r.size_bytes} B`).join(', ')}`,
    );
    const participants = SESSIONS * (SIGNERS + 1);
    record({
      id: 'P7',
      measure: `notary's start → first remote video frame on the signer's page, p50, ${SESSIONS} sessions × ${SIGNERS + 1}`,
      value: `${percentile(firstFrames, 50)} ms (${firstFrames.map((f, i) => `${f} ms beside ${i} live room${i === 1 ? '' : 's'}`).join(', ')})`,
      target: `p50 < ${TARGET_FIRST_FRAME_MS} ms`,
      pass: percentile(firstFrames, 50) < TARGET_FIRST_FRAME_MS,
    });
    record({
      id: 'P7',
      measure: `Janus CPU per participant (${participants} in ${SESSIONS} rooms, ${MEASURE_S} s, recording)`,
      value: `${(cpuPercent / participants).toFixed(1)} % of a core (${cpuPercent.toFixed(0)} % in all)`,
      target: 'reported',
      pass: null,
    });
    record({
      id: 'P7',
      measure: 'recording bytes per minute of act (the evidence: each participant’s VP8 + Opus as received)',
      value: `${(percentile(perMinute, 50) / 2 ** 20).toFixed(2)} MiB/min (p50 of ${recordings.length})`,
      target: 'reported',
      pass: null,
    });
  } finally {
    await browser.close();
  }
}
