import { type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config';
import { scratchDirectory } from '../faults/scratchDirectory';
import { createAccount } from '../src/accounts/accounts';
import { loadDigitalId } from '../src/notarizedPdf/digitalId';
import { rows, verdict, say } from './report';
import { ROOT, waitUntil } from './processes';
import { deedPdf } from '../demo/deedPdf';
import { stackQuietFor, Stack, startStack } from './stack';
import { p1CreateAgainstFloor } from './p1';
import { p2TenMegabyteCreate } from './p2';
import { p3TeamList } from './p3';
import { p4EventToReceiver } from './p4';
import { p6TimeToNotary } from './p6';
import { p5Parked } from './p5';
import { p7LiveRooms } from './p7';
import { p8LongAct } from './p8';
import { inviteCommissionedNotary } from '../faults/driver';
/** Production settings for every stack the bench starts, with a development digital ID passed in. */
function benchSettings(mainDir: string) {
  const settings: Record<string, string> = {
    NODE_ENV: 'production',
    // No identity vendor is configured here: the sandbox stands in, as in a staging deployment.
    ALLOW_SANDBOX_IDENTITY: 'true',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    JWT_SECRET: crypto.randomBytes(32).toString('hex'),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    TEMPORAL_TASK_QUEUE: 'bench',
    // Every simulated client calls from this one loopback address.
    RATE_LIMIT_PER_CLIENT_PER_MINUTE: '100000000',
  };
  const config = loadConfig({ ...process.env, ...settings, DATA_DIR: mainDir });
  // Production entry points need a signing certificate: a development one, passed as an operator would.
  const identity = loadDigitalId({ ...config, nodeEnv: 'development' });
  Object.assign(settings, {
    SIGNING_P12_PATH: path.join(mainDir, 'signing', 'signer.p12'),
    SIGNING_P12_PASSPHRASE: identity.passphrase,
  });
  return { settings, config };
}

/** An account with a commissioned team notary, and the create body every section sends. */
async function benchAccount(apiUrl: string, sequelize: Stack['sequelize']) {
  const account = await createAccount(sequelize, { name: 'Bench', autoOnboarding: true, testMode: true });
  const notaryEmail = 'bench-notary@example.com';
  await inviteCommissionedNotary(apiUrl, account.vendor_api_key, {
    email: notaryEmail,
    firstName: 'Bench',
    lastName: 'Notary',
    commissionNumber: 'TX-000001',
  });
  const bodyWith = (base64Doc: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      signing_type: 'ron',
      notarization_id: `B${crypto.randomUUID().replace(/-/g, '')}`,
      notarization_timing_type: 'notarize_now',
      session_type: 'gnw',
      session_notary_email: notaryEmail,
      all_signers: [
        { email: 'signer@example.com', first_name: 'Sam', last_name: 'Signer', authentication_type: 'skip' },
      ],
      session_documents: [{ name: 'deed.pdf', base64Doc }],
      ...extra,
    });
  return {
    account,
    bodyWith,
    auth: { authorization: `Bearer ${account.api_key}`, 'content-type': 'application/json' },
  };
}

/** Every section in turn; BENCH_ONLY=P1,P3 runs some (e.g. to profile one: BENCH_CPU_PROF_DIR profiles P1's API and floor). */
async function runSections(
  stack: (name: string) => Promise<Stack>,
  config: ReturnType<typeof loadConfig>,
  p1Children: ChildProcess[],
) {
  const main = await stack('main');
  const { apiUrl, api, sequelize } = main;
  const { account, bodyWith, auth } = await benchAccount(apiUrl, sequelize);
  const deed = (await deedPdf()).toString('base64');
  const only = process.env.BENCH_ONLY?.split(',');
  const section = async (id: string, run: () => Promise<void>) => {
    if (only && !only.includes(id)) return;
    const t0 = Date.now();
    await run();
    say(`${id} took ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  };
  // Each section after a load starts once the stack has worked off what that load left it.
  const quiet = () =>
    waitUntil(
      'the worker, PostgreSQL and Temporal to go quiet (under 10 % of a core for 5 s)',
      () => stackQuietFor([main], 5),
      600_000,
    );
  const { api_key: apiKey, account_id: accountId } = account;
  await section('P1', () =>
    p1CreateAgainstFloor({ stack: main, apiKey, accountId, deed, bodyWith, children: p1Children, config }),
  );
  await section('P2', () => quiet().then(() => p2TenMegabyteCreate(apiUrl, api.pid!, auth, bodyWith)));
  await section('P3', () => quiet().then(() => p3TeamList(apiUrl, sequelize)));
  await section('P4', () => p4EventToReceiver(apiUrl, sequelize, bodyWith, deed));
  await section('P6', () => quiet().then(() => p6TimeToNotary(apiUrl, sequelize, auth, bodyWith, deed)));
  await section('P5', () => p5Parked(stack, bodyWith, deed));
  await section('P7', () => quiet().then(async () => p7LiveRooms(main, await deedPdf())));
  await section('P8', () => quiet().then(async () => p8LongAct(main, await deedPdf())));
}

/** The table beside its targets, on stdout and in .data/bench/latest.json. */
function report(started: number) {
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`;
  const table = [
    `Benchmark (${machine}), ${((Date.now() - started) / 60_000).toFixed(1)} min`,
    '',
    '| | measure | value | target | |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.id} | ${r.measure} | ${r.value} | ${r.target} | ${verdict(r)} |`),
    '',
  ].join('\n');
  console.log(`\n${table}`);
  const out = path.join(ROOT, '.data', 'bench');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(
    path.join(out, 'latest.json'),
    JSON.stringify({ at: new Date().toISOString(), machine, rows }, null, 2),
  );
  console.log(`written to ${path.join(out, 'latest.json')}`);
}

async function main() {
  const started = Date.now();
  const dataDir = scratchDirectory('bench');
  const mainDir = path.join(dataDir, 'main');
  fs.mkdirSync(mainDir, { mode: 0o755 });
  const { settings, config } = benchSettings(mainDir);
  const stacks: Stack[] = [];
  const p1Children: ChildProcess[] = [];
  const stopAll = async () => {
    p1Children.forEach((c) => c.kill('SIGTERM'));
    await Promise.allSettled(stacks.map((s) => s.stop()));
    p1Children.forEach((c) => c.kill('SIGKILL'));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void stopAll().finally(() => process.exit(130)));
  const stack = async (name: string) => {
    const s = await startStack(settings, path.join(dataDir, name));
    stacks.push(s);
    return s;
  };
  try {
    await runSections(stack, config, p1Children);
  } finally {
    await stopAll();
  }
  report(started);
  if (rows.some((r) => r.pass === false)) process.exit(1);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
