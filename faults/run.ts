import fs from 'node:fs';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import type { Sequelize } from 'sequelize';
import { createDatabase } from '../src/db/database';
import { createAccount } from '../src/accounts/accounts';
import { readAuditTrail, verifyChain } from '../src/audit/auditChain';
import { pdfBytes } from '../test/support/documents';
import { recordStage } from '../test/results/stageResults';
import { productionCluster } from './cluster';
import { removeAfterPass } from './scratchDirectory';
import { CallLog, Integrator, runIdOf, useDocument, type Step } from './driver';
import { SignatureCheckingReceiver } from './receiver';
import { SESSION_COURSE_EVENTS } from '../test/support/sessionCourse';

/**
 * `npm run test:faults`: sessions run end to end against PostgreSQL, Temporal, the API and the worker
 * as separate processes, while one of each fault strikes: a worker SIGKILL, a Temporal restart, a
 * PostgreSQL restart and the webhook receiver going down. Then it checks that nothing was lost.
 * `-- --sessions 200 --receiver-down 30` is the long run the README reports.
 */

interface Options {
  sessions: number;
  concurrency: number;
  receiverDown: number;
  databaseDown: number;
  spacing: number;
  keep: boolean;
}

interface FaultWindow {
  name: string;
  from: number;
  to: number;
}

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
    const account = await createAccount(sequelize, { name: 'Fault test', autoOnboarding: true });
    const callLog = new CallLog();
    const integrator = new Integrator(cluster.apiUrl, account.api_key, callLog);
    const notaryEmail = `notary-${runIdOf()}@example.com`;
    const invited = await fetch(`${cluster.apiUrl}/api/integrationsv2/team_members/invite`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.vendor_api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        email: notaryEmail,
        business_role: 'notary',
        first_name: 'Fay',
        last_name: 'Ault',
        state: 'TX',
        county: 'Travis',
        commission_number: 'TX-424242',
        commission_expires_on: '2035-12-31',
      }),
    });
    if (invited.status !== 201) throw new Error(`notary invite: ${invited.status} ${await invited.text()}`);
    const receiverUrl = await receiver.start();
    const hook = await integrator.call('POST', '/api/integrationsv2/webhooks', { url: receiverUrl });
    receiver.trust(hook.body.secret!);
    useDocument(await pdfBytes(1));

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
    const fault = async (name: string, atFraction: number, inject: () => Promise<void>) => {
      await sleep(Math.max(0, started + planMs * atFraction - Date.now()));
      const from = Date.now();
      log(`fault: ${name}`);
      await inject();
      faults.push({ name, from, to: Date.now() });
      log(`fault over: ${name} (${((Date.now() - from) / 1000).toFixed(1)} s)`);
    };
    const faultsDone = (async () => {
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
    })();
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

interface DeliveryRow {
  event_id: string;
  event: string;
  session_id: string;
  status: string;
  attempt_count: number;
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

interface Evidence {
  sequelize: Sequelize;
  opts: Options;
  sessionIds: string[];
  sessionErrors: string[];
  callLog: CallLog;
  receiver: SignatureCheckingReceiver;
  deliveries: DeliveryRow[];
  faults: FaultWindow[];
  steps: Step[];
  unexpectedExits: { api: number; worker: number };
  reportFile: string;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/** Checks the run's evidence against what issue 16 requires; returns what failed. */
async function verify(e: Evidence): Promise<string[]> {
  const failures: string[] = [...e.sessionErrors];
  const checks = { passed: 0, failed: 0 };
  const [sessions] = (await e.sequelize.query(
    `SELECT id, status, documents_status FROM sessions WHERE id = ANY($1::uuid[])`,
    { bind: [e.sessionIds] },
  )) as [Array<{ id: string; status: string; documents_status: string }>, unknown];
  const finished = sessions.filter((s) => s.status === 'completed' && s.documents_status === 'released');

  const received = new Map<string, string[]>();
  for (const r of e.receiver.receipts)
    received.set(r.webhookId, [...(received.get(r.webhookId) ?? []), r.body]);
  const lost = e.deliveries.filter((d) => !received.has(d.event_id));
  const changedBody = [...received.entries()].filter(([, bodies]) => new Set(bodies).size > 1);
  const pending = e.deliveries.filter((d) => d.status !== 'delivered');

  const [[keys]] = (await e.sequelize.query(
    `SELECT count(*)::int AS in_progress FROM idempotency_keys WHERE state = 'in_progress'`,
  )) as [Array<{ in_progress: number }>, unknown];
  const brokenChains: string[] = [];
  for (const id of e.sessionIds) {
    const verdict = verifyChain(await readAuditTrail(e.sequelize, id));
    if (!verdict.intact) brokenChains.push(id);
  }
  const [recorded] = (await e.sequelize.query(
    `SELECT session_id, array_agg(event) AS events FROM events
      WHERE session_id = ANY($1::uuid[]) GROUP BY session_id`,
    { bind: [e.sessionIds] },
  )) as [Array<{ session_id: string; events: string[] }>, unknown];
  // Each session's course, each event once whatever faults it met: one missing is an event lost; one
  // twice is a step whose workflow task was lost and run again on another path.
  const course = JSON.stringify([...SESSION_COURSE_EVENTS].sort());
  const offCourse = e.sessionIds
    .map((id) => ({
      session_id: id,
      events: (recorded.find((r) => r.session_id === id)?.events ?? []).sort(),
    }))
    .filter((r) => JSON.stringify(r.events) !== course);
  const [[duplicates]] = (await e.sequelize.query(
    `SELECT (SELECT count(*) FROM sessions) - (SELECT count(DISTINCT notarization_id) FROM sessions) AS sessions,
            (SELECT count(*) - count(DISTINCT document_id) FROM signed_documents) AS signed_documents`,
  )) as [Array<{ sessions: string; signed_documents: string }>, unknown];

  // How long each fault kept answering 503, and how much a step that overlapped it was held back.
  // A fault's effects are looked for from its start until 20 s after it ended, or the next fault began;
  // a step that overlaps several is charged to the latest that began before it ended.
  const untilOf = (i: number) => Math.min(e.faults[i].to + 20_000, e.faults[i + 1]?.from ?? Infinity);
  const chargedTo = (s: Step) => {
    let charged = -1;
    e.faults.forEach((f, i) => {
      if (f.from <= s.to && untilOf(i) >= s.from) charged = i;
    });
    return charged;
  };
  const faultFigures = e.faults.map((f, i) => {
    const until = untilOf(i);
    const within = e.callLog.unavailableAt.filter((t) => t >= f.from && t <= until);
    const overlapping = e.steps.filter((s) => chargedTo(s) === i);
    const delays = overlapping.map((s) => {
      const usual = median(e.steps.filter((o) => o.name === s.name).map((o) => o.to - o.from));
      return s.to - s.from - usual;
    });
    return {
      fault: f.name,
      duration_s: +((f.to - f.from) / 1000).toFixed(1),
      responses_503: within.length,
      longest_503_window_s: within.length
        ? +((Math.max(...within) - Math.min(...within)) / 1000).toFixed(1)
        : 0,
      steps_in_window: overlapping.length,
      longest_step_delay_s: delays.length ? +(Math.max(...delays) / 1000).toFixed(1) : 0,
    };
  });
  const workerKill = faultFigures.find((f) => f.fault === 'worker SIGKILL');

  const report = {
    sessions: { planned: e.opts.sessions, completed_and_released: finished.length },
    deliveries: {
      events: e.deliveries.length,
      delivered: e.deliveries.filter((d) => d.status === 'delivered').length,
      lost: lost.length,
      left_pending: pending.length,
      received_including_duplicates: e.receiver.receipts.length,
      bad_signatures: e.receiver.badSignatures,
      same_id_different_body: changedBody.length,
      sessions_whose_events_are_not_their_course: offCourse.length,
    },
    http: {
      by_status: Object.fromEntries([...e.callLog.statuses.entries()].sort(([a], [b]) => a - b)),
      server_errors_other_than_503: e.callLog.serverErrors.length,
      connection_errors: e.callLog.connectionErrors,
      unexpected_answers: e.callLog.unexpected,
    },
    idempotency_keys_in_progress: keys.in_progress,
    broken_audit_chains: brokenChains.length,
    duplicate_rows: {
      sessions: Number(duplicates.sessions),
      signed_documents: Number(duplicates.signed_documents),
    },
    process_exits_restarted_by_supervisor: e.unexpectedExits,
    faults: faultFigures,
  };
  fs.writeFileSync(e.reportFile, JSON.stringify(report, null, 2));
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);

  const check = (ok: boolean, failure: () => string) => {
    checks[ok ? 'passed' : 'failed'] += 1;
    if (!ok) failures.push(failure());
  };
  check(!e.sessionErrors.length, () => `${e.sessionErrors.length} sessions met errors (above)`);
  check(
    finished.length === e.opts.sessions,
    () => `${finished.length}/${e.opts.sessions} sessions completed and released`,
  );
  check(!lost.length, () => `${lost.length} events never reached the receiver`);
  check(!pending.length, () => `${pending.length} deliveries not delivered`);
  check(!changedBody.length, () => `${changedBody.length} webhook-ids delivered with different bodies`);
  check(
    !offCourse.length,
    () => `sessions whose events are not their course's, each once: ${JSON.stringify(offCourse.slice(0, 3))}`,
  );
  check(!e.receiver.badSignatures, () => `${e.receiver.badSignatures} deliveries with a bad signature`);
  check(
    !e.callLog.serverErrors.length,
    () =>
      `${e.callLog.serverErrors.length} answers 5xx other than 503: ${JSON.stringify(e.callLog.serverErrors.slice(0, 3))}`,
  );
  check(!keys.in_progress, () => `${keys.in_progress} idempotency keys left in progress`);
  check(!brokenChains.length, () => `${brokenChains.length} broken audit chains`);
  check(
    !Number(duplicates.sessions) && !Number(duplicates.signed_documents),
    () => `duplicate rows: ${JSON.stringify(duplicates)}`,
  );
  check(
    !workerKill || workerKill.longest_step_delay_s <= 30,
    () => `a worker kill held a session back ${workerKill?.longest_step_delay_s} s (target ≤ 30 s)`,
  );
  recordStage({ stage: 'faults', ...checks, skipped: 0 });
  return failures;
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
