import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { CallLog, Integrator, inviteCommissionedNotary, runIdOf, useDocument } from '../../faults/driver';
import { SignatureCheckingReceiver } from '../../faults/receiver';
import { beginLiveAct, gridOf, receiving, recordingOf } from '../../demo/liveAct';
import { liveParty } from '../../demo/liveParty';
import { launchParticipantsBrowser } from '../../demo/participantsBrowser';
import { pdfBytes } from '../../test/support/documents';
import type { ComposeStack } from './stack';

type Log = (line: string) => void;
const SESSIONS_PER_ROUND = 6;
const EVENTS = ['session_created', 'session_started', 'session_completed', 'documents_released'];

async function waitUntil(what: string, ok: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** A command in the first API container (the app image, on the compose network): its output. */
const inApi = (stack: ComposeStack, command: string[]) =>
  stack.compose(['exec', '-T', '--index', '1', 'api', ...command]);

/** An account made with the admin CLI in the first API container, as an operator makes one: its keys. */
async function createAccount(stack: ComposeStack, name: string, testMode: boolean) {
  const args = ['create-account', '--name', name, '--auto-onboarding', ...(testMode ? ['--test-mode'] : [])];
  const out = await inApi(stack, ['node', 'dist/scripts/admin.js', ...args]);
  return JSON.parse(out) as { api_key: string; vendor_api_key: string };
}

/** A process crash: the container's main process SIGKILLed from the host; Docker's restart policy brings it back. */
export async function crash(stack: ComposeStack, service: string, index: number, log: Log): Promise<number> {
  const name = `${stack.project}-${service}-${index}`;
  const inspect = () =>
    execFileSync('docker', [
      'inspect',
      '-f',
      '{{.State.Pid}} {{.State.StartedAt}} {{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}',
      name,
    ])
      .toString()
      .trim()
      .split(' ');
  const [pid, startedAt] = inspect();
  const at = Date.now();
  process.kill(Number(pid), 'SIGKILL');
  log(`${name}: main process ${pid} SIGKILLed`);
  await waitUntil(
    `${name} restarted and healthy`,
    async () => {
      const [, since, status, health] = inspect();
      return since !== startedAt && status === 'running' && ['healthy', 'none'].includes(health);
    },
    180_000,
  );
  return Date.now() - at;
}

/** Every session's notarized PDF, fetched through the API that did not create it, checked by pdfsig. */
async function pdfsigValid(sessions: string[], integrators: Integrator[]): Promise<number> {
  let valid = 0;
  for (const [i, id] of sessions.entries()) {
    const pdf = await integrators[i % 2].notarizedPdf(id);
    // pdfsig reads a file, not standard input; it exits non-zero for an untrusted certificate, which the
    // development identity is: its verdict on the signature itself is what counts.
    const file = path.join(os.tmpdir(), `verify-compose-${id}.pdf`);
    fs.writeFileSync(file, pdf);
    const out = spawnSync('pdfsig', [file]).stdout.toString();
    fs.rmSync(file, { force: true });
    if (/Signature Validation: Signature is Valid\./.test(out)) valid++;
  }
  return valid;
}

/**
 * Sessions of a test-mode account through both APIs, with a webhook receiver on the host that checks every
 * signature: a round undisturbed; one while an API and a worker crash; one while PostgreSQL restarts.
 */
export async function sessionsUnderFaults(stack: ComposeStack, urls: string[], hostIp: string, log: Log) {
  const account = await createAccount(stack, 'Verify compose', true);
  const notaryEmail = `notary-${runIdOf()}@example.com`;
  await inviteCommissionedNotary(urls[0], account.vendor_api_key, {
    email: notaryEmail,
    firstName: 'Vera',
    lastName: 'Fy',
    commissionNumber: 'TX-777001',
  });
  const receiver = new SignatureCheckingReceiver();
  const callLog = new CallLog();
  const integrators = urls.map((url) => new Integrator(url, account.api_key, callLog));
  try {
    const hook = await integrators[1].call('POST', '/api/integrationsv2/webhooks', {
      url: await receiver.start({ listen: '0.0.0.0', advertise: hostIp }),
    });
    receiver.trust(hook.body.secret!);
    useDocument(await pdfBytes(1));
    const runId = runIdOf();
    const round = (from: number) =>
      Promise.all(
        Array.from({ length: SESSIONS_PER_ROUND }, (_, k) =>
          integrators[(from + k) % 2].runSession(from + k, runId, notaryEmail),
        ),
      );
    const faults: Record<string, number> = {};
    const sessions = await round(0);
    log(`round 1: ${sessions.length} sessions through both APIs`);
    const second = round(SESSIONS_PER_ROUND);
    faults['API container crashed mid-round'] = await crash(stack, 'api', 1, log);
    faults['worker container crashed mid-round'] = await crash(stack, 'worker', 1, log);
    sessions.push(...(await second));
    log(`round 2: ${SESSIONS_PER_ROUND} sessions through an API and a worker crash`);
    const third = round(2 * SESSIONS_PER_ROUND);
    const restartAt = Date.now();
    await stack.compose(['restart', 'postgresql']);
    faults['PostgreSQL restarted mid-round'] = Date.now() - restartAt;
    sessions.push(...(await third));
    log(`round 3: ${SESSIONS_PER_ROUND} sessions through a PostgreSQL restart`);
    await waitUntil(
      'every session’s webhooks',
      async () =>
        sessions.every((id) =>
          EVENTS.every((e) => receiver.receipts.some((r) => r.sessionId === id && r.event === e)),
        ),
      180_000,
    );
    return {
      sessions: sessions.length,
      webhooks: receiver.receipts.length,
      badSignatures: receiver.badSignatures,
      pdfsigValid: await pdfsigValid(sessions, integrators),
      serverErrors: callLog.serverErrors.length,
      faults,
    };
  } finally {
    await receiver.stop();
  }
}

/**
 * Each connected connection of a relay-only page: its ICE policy and the local address its selected pair uses.
 * A relayed pair's local address is the TURN server's relay (seen by Janus as peer-reflexive when coturn
 * reaches it on the compose network), never one of this host's own interfaces.
 */
function selectedPairs(page: Page): Promise<Array<{ policy: string; type: string; address: string }>> {
  return page.evaluate(`Promise.all((window.relayedConnections || []).filter((pc) => pc.connectionState === 'connected').map((pc) => pc.getStats().then((r) => {
    let pair;
    r.forEach((s) => { if (s.type === 'transport' && s.selectedCandidatePairId) pair = r.get(s.selectedCandidatePairId); });
    const local = pair ? r.get(pair.localCandidateId) : undefined;
    return { policy: pc.getConfiguration().iceTransportPolicy, type: local ? local.candidateType : 'none', address: local ? local.address : '' };
  })))`) as Promise<Array<{ policy: string; type: string; address: string }>>;
}

/** The addresses of this host's own interfaces: a pair using one of them is not relayed. */
function hostAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flat()
    .map((i) => i?.address ?? '');
}

/** Fetched from inside the compose network, where the S3 store's link points. */
async function storedHash(stack: ComposeStack, url: string): Promise<string> {
  const hash = await inApi(stack, [
    'node',
    '-e',
    `fetch(process.argv[1]).then((r) => r.arrayBuffer()).then((b) => console.log(require('crypto').createHash('sha256').update(Buffer.from(b)).digest('hex')))`,
    url,
  ]);
  return hash.trim();
}

/** Janus crashes: its process in the janus container (the entrypoint's child) SIGKILLed from the host. */
function crashJanus(stack: ComposeStack, log: Log): void {
  const entrypoint = execFileSync('docker', ['inspect', '-f', '{{.State.Pid}}', `${stack.project}-janus-1`])
    .toString()
    .trim();
  const janus = execFileSync('pgrep', ['-P', entrypoint, '-x', 'janus']).toString().trim();
  process.kill(Number(janus), 'SIGKILL');
  log(`janus (pid ${janus}) SIGKILLed`);
}

/**
 * A page's room states (web/liveRoom.ts) from now until `stop`, each change with its ms since `from`: a long
 * `reconnecting` is a connection that never came, a second one a connection that came and then failed.
 */
function watchRoomStates(page: Page, from: number): { stop(): string } {
  const changes: string[] = [];
  let watching = true;
  let last = '';
  const watch = async () => {
    while (watching) {
      const state = String(
        await page
          .evaluate('window.notarizationRoom ? window.notarizationRoom.state() : "none"')
          .catch(() => 'unreadable'),
      );
      if (state !== last) changes.push(`${state} ${Date.now() - from}`);
      last = state;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  void watch();
  return {
    stop: () => {
      watching = false;
      return changes.join(' → ');
    },
  };
}

/**
 * A live act of two signers and the notary in headless Chromium on the host, through the published media
 * ports; the first signer relay-only through coturn. Janus crashes mid-act; the act completes, and its
 * evidence (two segments) and then its composed grid are in the S3 store with the hashes the API gives.
 */
export async function liveActThroughCompose(stack: ComposeStack, apiUrl: string, log: Log) {
  const account = await createAccount(stack, 'Verify compose live', false);
  const party = await liveParty(apiUrl, account);
  const browser = await launchParticipantsBrowser();
  let states: Array<{ stop(): string }> = [];
  try {
    const act = await beginLiveAct(browser, party, await pdfBytes(1), 2, { firstSignerRelayOnly: true });
    const pairs = await selectedPairs(act.pages[0].page);
    const own = hostAddresses();
    if (!pairs.length || pairs.some((p) => p.policy !== 'relay' || own.includes(p.address)))
      throw new Error(`the relay-only signer's connections are not all relayed: ${JSON.stringify(pairs)}`);
    const relayed = pairs.map((p) => `${p.type} ${p.address}`);
    log(
      `live act: first frame ${act.startToFirstFrameMs} ms after Start; relay-only signer's connections through ${relayed.join(', ')}`,
    );
    const crashAt = Date.now();
    states = act.pages.map(({ page }) => watchRoomStates(page, crashAt));
    crashJanus(stack, log);
    // Each page's own return (the relay-only signer first, the notary last) tells a slow page from a slow room.
    const pagesBackMs = await Promise.all(
      act.pages.map(async ({ page }) => {
        await receiving(page, 2, 120_000, 2);
        return Date.now() - crashAt;
      }),
    );
    const janusBackMs = Math.max(...pagesBackMs);
    log(`Janus crashed mid-act: everyone sees and hears everyone again after ${janusBackMs} ms`);
    log(`each page's room states since the crash (ms): ${states.map((s) => s.stop()).join('; ')}`);
    await act.complete();
    const recording = await recordingOf(party, act.id, 300_000);
    if (recording.segments.length < 2)
      throw new Error(`the recording lists ${recording.segments.length} segment(s), not one per room`);
    const [first, second] = recording.segments as Array<{ started_at: string; ended_at: string }>;
    const sinceCrash = (at: string) => `${Date.parse(at) - crashAt} ms`;
    log(
      `segment 1 ended ${sinceCrash(first.ended_at)} after the crash, segment 2 opened ${sinceCrash(second.started_at)}` +
        ` after it; each page back after ${pagesBackMs.join(', ')} ms`,
    );
    const grid = await gridOf(party, act.id);
    // The evidence and its composed grid, each as the media worker stored it in S3 with the hash the API gives.
    for (const file of [recording, grid]) {
      const hash = await storedHash(stack, file.download_url);
      if (hash !== file.sha256) throw new Error(`${file.download_url} hashes to ${hash}, not ${file.sha256}`);
    }
    return { firstFrameMs: act.startToFirstFrameMs, relayed, janusBackMs, recording, grid };
  } finally {
    // A watcher left running after a failure would keep the run from ever exiting.
    for (const watcher of states) watcher.stop();
    await browser.close();
  }
}
