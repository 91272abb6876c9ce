/**
 * `npm run test:faults`: sessions run end to end against PostgreSQL, Temporal, the API and the worker
 * as separate processes, while one of each fault strikes: a worker SIGKILL, a Temporal restart, a
 * PostgreSQL restart and the webhook receiver going down. Then it checks that nothing was lost.
 * `-- --sessions 200 --receiver-down 30` is the long run the README reports.
 */
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import type { Sequelize } from 'sequelize';
import { createDatabase } from '../src/db/database';
import { createAccount } from '../src/accounts/accounts';
import { pdfBytes } from '../test/support/documents';
import { productionCluster, type Cluster } from './cluster';
import { removeAfterPass } from './scratchDirectory';
import { CallLog, Integrator, runIdOf, useDocument } from './driver';
import { SignatureCheckingReceiver } from './receiver';
import { inviteCommissionedNotary } from './driver';
import { verify } from './verify';
import { Options, FaultWindow, DeliveryRow } from './evidence';
const positive = (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('must be a positive number');
  return n;
};
const program = new Command('test:faults')
  .option('--sessions <n>', 'sessions to run end to end', positive, 20)
  .option('--concurrency <n>', 'sessions in flight at once', positive, 8)
  .option('--spacing <ms>', 'time between session starts', positive, 2_000)
  .option('--receiver-down <s>', 'seconds the webhook receiver is down', positive, 10)
  .option('--database-down <s>', 'seconds PostgreSQL is down during its restart', positive, 10)
  .option('--keep', 'keep the data directory (logs, report) after a pass too', false);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (line: string) => process.stderr.write(`[faults] ${line}\n`);
/** One fault of each kind, each at its point of the run: a worker SIGKILL, Temporal, PostgreSQL, the receiver. */
async function injectFaults(
  cluster: Cluster,
  receiver: SignatureCheckingReceiver,
  opts: Options,
  run: { started: number; planMs: number; faults: FaultWindow[] },
) {
  const fault = async (name: string, atFraction: number, inject: () => Promise<void>) => {
    await sleep(Math.max(0, run.started + run.planMs * atFraction - Date.now()));
    const from = Date.now();
    log(`fault: ${name}`);
    await inject();
    run.faults.push({ name, from, to: Date.now() });
    log(`fault over: ${name} (${((Date.now() - from) / 1000).toFixed(1)} s)`);
  };
  await fault('worker SIGKILL', 0.2, async () => {
    await cluster.worker.kill();
    // The supervisor brings a worker back, as a container restart policy would.
    await sleep(2_000);
    cluster.worker.start();
  });
  await fault('Temporal restart', 0.4, async () => {
    await cluster.stopTemporal();
    await cluster.startTemporal();
  });
  await fault('PostgreSQL restart', 0.6, async () => {
    await cluster.stopPostgres();
    await sleep(opts.databaseDown * 1_000);
    await cluster.startPostgres();
  });
  await fault('webhook receiver down', 0.8, async () => {
    await receiver.stop();
    await sleep(opts.receiverDown * 1_000);
    await receiver.start();
  });
}

/** An account, its commissioned notary and a webhook endpoint on the signature-checking receiver. */
async function provision(cluster: Cluster, sequelize: Sequelize, receiver: SignatureCheckingReceiver) {
  const account = await createAccount(sequelize, {
    name: 'Fault test',
    autoOnboarding: true,
    testMode: true,
  });
  const callLog = new CallLog();
  const integrator = new Integrator(cluster.apiUrl, account.api_key, callLog);
  const notaryEmail = `notary-${runIdOf()}@example.com`;
  await inviteCommissionedNotary(cluster.apiUrl, account.vendor_api_key, {
    email: notaryEmail,
    firstName: 'Fay',
    lastName: 'Ault',
    commissionNumber: 'TX-424242',
  });
  const hook = await integrator.call('POST', '/api/integrationsv2/webhooks', { url: await receiver.start() });
  receiver.trust(hook.body.secret!);
  useDocument(await pdfBytes(1));
  return { integrator, callLog, notaryEmail };
}

async function main() {
  const opts = program.parse(process.argv).opts<Options>();
  const { cluster, dataDir } = await productionCluster(
    'faults',
    {
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      // Long enough to outlast the receiver's downtime several times over.
      WEBHOOK_RETRY_SCHEDULE: '1s,2s,5s,10s,20s,30s,60s,120s',
      WEBHOOK_TIMEOUT: '5s',
      // Every simulated participant and integrator calls from this one loopback address.
      RATE_LIMIT_PER_CLIENT_PER_MINUTE: '1000000',
    },
    log,
  );
  const receiver = new SignatureCheckingReceiver();
  const stopEverything = async () => {
    await receiver.stop();
    await cluster.stopAll();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void stopEverything().finally(() => process.exit(130)));
  }

  log(`data and logs in ${dataDir}`);
  await cluster.startAll();
  const sequelize = createDatabase(cluster.databaseUrl);
  let failures: string[] = [];
  try {
    const { integrator, callLog, notaryEmail } = await provision(cluster, sequelize, receiver);

    const runId = runIdOf();
    const faults: FaultWindow[] = [];
    const sessionIds: string[] = [];
    const sessionErrors: string[] = [];
    const started = Date.now();
    const planMs = opts.sessions * opts.spacing;
    log(
      `running ${opts.sessions} sessions over ~${Math.round(planMs / 1000)} s, ${opts.concurrency} at a time`,
    );

    const sessionsDone = runSessions(opts, async (i) => {
      try {
        sessionIds.push(await integrator.runSession(i, runId, notaryEmail));
      } catch (err) {
        sessionErrors.push(`session ${i}: ${(err as Error).message}`);
      }
    });
    const faultsDone = injectFaults(cluster, receiver, opts, { started, planMs, faults });
    await Promise.all([sessionsDone, faultsDone]);
    log(`sessions done in ${((Date.now() - started) / 1000).toFixed(0)} s; waiting for the last deliveries`);

    const deliveries = await waitForDeliveries(sequelize, 5 * 60_000);
    failures = await verify({
      sequelize,
      opts,
      sessionIds,
      sessionErrors,
      callLog,
      receiver,
      deliveries,
      faults,
      steps: integrator.steps,
      unexpectedExits: { api: cluster.api.unexpectedExits, worker: cluster.worker.unexpectedExits },
      reportFile: path.join(dataDir, 'faults-report.json'),
    });
  } finally {
    await sequelize.close();
    await stopEverything();
  }
  if (failures.length) {
    log(`FAILED:\n  ${failures.join('\n  ')}\nlogs and report: ${dataDir}`);
    process.exit(1);
  }
  // A pass's report is on stdout too.
  removeAfterPass(dataDir, opts.keep, log);
}
/** Starts session `i` every `spacing` ms, with at most `concurrency` in flight. */
async function runSessions(opts: Options, run: (i: number) => Promise<void>): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  for (let i = 0; i < opts.sessions; i++) {
    while (inFlight.size >= opts.concurrency) await Promise.race(inFlight);
    const p = run(i).finally(() => inFlight.delete(p));
    inFlight.add(p);
    await sleep(opts.spacing);
  }
  await Promise.all(inFlight);
}
async function waitForDeliveries(sequelize: Sequelize, timeoutMs: number): Promise<DeliveryRow[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [rows] = (await sequelize.query(
      `SELECT d.event_id, e.event, e.session_id, d.status, d.attempt_count
         FROM webhook_deliveries d JOIN events e ON e.id = d.event_id`,
    )) as [DeliveryRow[], unknown];
    if (rows.every((r) => r.status !== 'pending') || Date.now() > deadline) return rows;
    await sleep(1_000);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
