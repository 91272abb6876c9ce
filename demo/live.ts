import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { startRuntime } from '../server/runtime';
import { embeddedBacking } from '../server/embedded/services';
import { createApp } from '../src/http/app';
import { startWorker } from '../worker/createWorker';
import { runMain } from '../src/process';
import { createAccount } from '../src/accounts/accounts';
import { deedPdf } from './deedPdf';
import { api, beginLiveAct, gridOf, recordingOf, until, type LiveParty } from './liveAct';
import { liveParty } from './liveParty';
import { launchParticipantsBrowser } from './participantsBrowser';

/**
 * `npm run demo:live`: the embedded stack of `npm start` (same settings), one live account, and one whole
 * live act on it with headless signers and a notary on fake cameras. The last line on stdout is the
 * session for the API: `{bn_session_id, api_base, api_key}`. `--act-seconds N` (10) is how long they talk
 * on camera before signing, `--signers K` (1) how many sign; with `--keep` the stack stays up after it.
 */
const say = (line: string) => process.stderr.write(`[demo:live] ${line}\n`);

/** The notarized PDF once released, and the adopted signatures it carries (600 × 150 images). */
async function notarizedDocument(party: LiveParty, id: string): Promise<string> {
  const sessions = `/api/integrationsv2/sessions/${id}`;
  await until(
    'the notarized documents',
    () => api(party.apiUrl, party.apiKey, 'GET', sessions),
    (r) => r.body.documents_status === 'released',
    120_000,
  );
  const documents = await api(party.apiUrl, party.apiKey, 'GET', `${sessions}/documents`);
  const [document] = documents.body.documents as Array<{ name: string; download_url: string }>;
  const pdf = Buffer.from(await (await fetch(document.download_url)).arrayBuffer());
  const file = path.join(os.tmpdir(), `demo-live-${id}.pdf`);
  fs.writeFileSync(file, pdf);
  // pdfimages (Poppler) lists each image with its page: the document's last page has the seal and the mark.
  const listed = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' }).trim().split('\n').slice(2);
  const marks = listed.filter((line) => / image +600 +150 /.test(line)).length;
  if (marks === 0) throw new Error(`the notarized PDF carries no adopted signature:\n${listed.join('\n')}`);
  return `notarized ${document.name}: ${pdf.length} bytes at ${file}, with ${marks} adopted signature image(s) (pdfimages)`;
}

const secondsBetween = (from: string, to: string) => ((Date.parse(to) - Date.parse(from)) / 1000).toFixed(1);

function wholeNumber(flag: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`${flag} takes a whole number from ${min} to ${max}`);
  return n;
}

/** `--keep`, `--act-seconds N`, `--signers K`. */
function options() {
  const { values } = parseArgs({
    options: {
      keep: { type: 'boolean', default: false },
      'act-seconds': { type: 'string', default: '10' },
      signers: { type: 'string', default: '1' },
    },
  });
  const actSeconds = wholeNumber('--act-seconds', values['act-seconds'], 0, 24 * 3600);
  const signers = wholeNumber('--signers', values.signers, 1, 10);
  return { keep: values.keep, actSeconds, signers };
}

async function main() {
  const { keep, actSeconds, signers } = options();
  process.env.NODE_ENV ??= 'development';
  process.env.LOG_LEVEL ??= 'warn';
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const runtime = await startRuntime(config, {
    api: createApp,
    worker: startWorker,
    backing: embeddedBacking({ persistentTemporal: true }),
    logger,
  });
  const stop = () => runtime.stop().finally(() => process.exit(0));
  try {
    const account = await createAccount(runtime.sequelize, { name: 'Live demo', autoOnboarding: true });
    const party = await liveParty(runtime.apiUrl!, account, { firstName: 'Dana', lastName: 'Notary' });
    say(
      `a live account and its notary on ${party.apiUrl}; ${signers} signer(s) and the notary enter the room`,
    );
    const browser = await launchParticipantsBrowser();
    try {
      const act = await beginLiveAct(browser, party, await deedPdf(), signers);
      say(
        `session ${act.id}: all ${signers + 1} in the room, seeing and hearing each other (first frame ${act.startToFirstFrameMs} ms after the start)`,
      );
      // The act itself: the notary and the signers talk a while, on camera and recorded, before completion.
      await new Promise((resolve) => setTimeout(resolve, actSeconds * 1000));
      const completed = await act.complete();
      say(`signed and completed after ${completed.actSeconds.toFixed(1)} s on camera`);
      const session = await api(party.apiUrl, party.apiKey, 'GET', `/api/integrationsv2/sessions/${act.id}`);
      for (const p of session.body.participants as Array<{ first_name: string; signed_at: string | null }>) {
        if (!p.signed_at) throw new Error(`${p.first_name} has no signed_at: ${JSON.stringify(p)}`);
        say(`${p.first_name} consented and signed every place, at ${p.signed_at}`);
      }
      const recording = await recordingOf(party, act.id);
      say(
        `recording ${recording.recording_id}: available ${secondsBetween(recording.ended_at, recording.available_at)} s after the act's end; ${recording.duration_seconds} s, ${recording.size_bytes} bytes, sha256 ${recording.sha256}`,
      );
      say(await notarizedDocument(party, act.id));
      const grid = await gridOf(party, act.id, Math.max(600, actSeconds * 2) * 1000);
      say(
        `composed grid: available ${secondsBetween(recording.available_at, grid.available_at)} s after the recording; ${grid.duration_seconds} s, ${grid.size_bytes} bytes, sha256 ${grid.sha256}`,
      );
      process.stdout.write(
        `${JSON.stringify({ bn_session_id: act.id, api_base: `${party.apiUrl}/api/integrationsv2`, api_key: party.apiKey })}\n`,
      );
    } finally {
      await browser.close();
    }
  } catch (err) {
    await runtime.stop();
    throw err;
  }
  if (!keep) return stop();
  say('the stack stays up (--keep): Ctrl-C or SIGTERM stops it');
  // npm, tsx and a terminal may each pass the same Ctrl-C or SIGTERM on: the first one stops the stack.
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () => {
      if (!stopping) void stop();
      stopping = true;
    });
}

runMain(main);
