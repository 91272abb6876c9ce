import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Connection, ScheduleOverlapPolicy } from '@temporalio/client';
import { loadConfig } from '../src/config';
import { TERMINATED_WORKFLOW_SWEEP_SCHEDULE } from '../src/temporal/schedules';
import { PRODUCTION_PROCESS_ENV } from '../src/process';
import { embeddedSqlEndpoint, startEmbeddedPostgres } from '../server/embedded/embeddedPostgres';
import { loadDigitalId } from '../src/notarizedPdf/digitalId';
import { freePort } from '../test/support/freePort';
import { pdfBytes } from '../test/support/documents';
import { SupervisedProcess } from '../faults/cluster';
import { CallLog, Integrator, runIdOf, useDocument } from '../faults/driver';
import { SignatureCheckingReceiver } from '../faults/receiver';
import { removeAfterPass, scratchDirectory } from '../faults/scratchDirectory';
import {
  TEMPORAL_SERVER_VERSION,
  ensureTemporalServer,
  startRealTemporal,
  toolVersion,
  waitUntil,
} from './temporalServer';
import { inviteCommissionedNotary } from '../faults/driver';
import { startComposeJanus } from './mediaServer';
import { startS3Server } from './s3Server';
import { verifyLiveAct } from './liveAct';

/**
 * `npm run verify:production`: the production shape on this machine, without Docker. A PostgreSQL
 * server; the real Temporal server (built from source at the pinned version) on it with its schemas set
 * up by its SQL tool and the namespace created before the apps start; two API and two worker processes
 * from their production entry points. Sessions run end to end through both APIs with a receiver that
 * checks every webhook's signature; then one worker is SIGKILLed and more sessions run on the other, and
 * an operator terminates one more session's workflow, which the `terminated-workflow-sweep` Schedule ends.
 * Those sessions are a test-mode account's; one live act runs through Janus as docker-compose starts it,
 * its recording kept in S3 (s3proxy).
 */
const ROOT = path.join(__dirname, '..');
const SESSIONS_PER_ROUND = 6;
const NAMESPACE = 'default';
const started = Date.now();
const log = (line: string) =>
  process.stdout.write(`[verify ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}\n`);

/** PostgreSQL, the Temporal server on it, two APIs and two workers from their production entry points. */
async function startShape(
  dir: string,
  tools: ReturnType<typeof ensureTemporalServer>,
  stops: Array<() => Promise<void>>,
) {
  const pgPort = await freePort();
  const postgres = await startEmbeddedPostgres({ dataDir: dir, port: pgPort, database: 'notarization', log });
  stops.push(() => postgres.stop());
  const pg = embeddedSqlEndpoint(pgPort);
  const temporal = await startRealTemporal({ tools, pg, dir, namespace: NAMESPACE, log });
  stops.push(() => temporal.stop());
  const { address } = temporal;
  log(`Temporal ${address} with namespace "${NAMESPACE}"; schemas on PostgreSQL ${pgPort}`);
  const identity = loadDigitalId(loadConfig({ DATA_DIR: dir, NODE_ENV: 'development' }));
  const apiPorts = [await freePort(), await freePort()];
  const janus = await startComposeJanus(
    path.join(dir, 'janus'),
    `http://127.0.0.1:${apiPorts[0]}/internal/media/events`,
    log,
  );
  stops.push(() => janus.stop());
  const s3 = await startS3Server(path.join(dir, 's3'));
  stops.push(() => s3.stop());
  log(`S3 (s3proxy) at ${s3.settings.S3_ENDPOINT}, bucket ${s3.settings.S3_BUCKET}`);
  const env = {
    ...process.env,
    ...PRODUCTION_PROCESS_ENV,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    DATABASE_URL: postgres.databaseUrl,
    TEMPORAL_ADDRESS: address,
    JWT_SECRET: crypto.randomBytes(32).toString('hex'),
    SIGNING_P12_PATH: path.join(dir, 'signing', 'signer.p12'),
    SIGNING_P12_PASSPHRASE: identity.passphrase,
    ALLOW_SANDBOX_IDENTITY: 'true',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    RATE_LIMIT_PER_CLIENT_PER_MINUTE: '1000000',
    ...janus.settings,
    ...s3.settings,
  };
  const apis = apiPorts.map(
    (port, i) =>
      new SupervisedProcess(
        'start-api.js',
        () => ({ ...env, PORT: String(port) }),
        path.join(dir, `api-${i + 1}.log`),
      ),
  );
  const workers = [1, 2].map(
    (i) => new SupervisedProcess('start-worker.js', () => env, path.join(dir, `worker-${i}.log`)),
  );
  for (const p of [...apis, ...workers]) {
    p.start();
    stops.push(() => p.stop());
  }
  await Promise.all(
    apiPorts.map((port) =>
      waitUntil(`API on ${port}`, async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).ok, 120_000),
    ),
  );
  log(`2 APIs (${apiPorts.join(', ')}) and 2 workers ready`);
  const urls = apiPorts.map((port) => `http://127.0.0.1:${port}`);
  return { env, address, workers, urls, s3Endpoint: s3.settings.S3_ENDPOINT };
}

/** A test-mode account made with the admin CLI, as an operator would, and its commissioned team notary. */
async function provision(env: NodeJS.ProcessEnv, apiUrl: string) {
  const account = JSON.parse(
    execFileSync(
      process.execPath,
      [
        path.join(ROOT, 'dist', 'scripts', 'admin.js'),
        'create-account',
        '--name',
        'Verify',
        '--auto-onboarding',
        '--test-mode',
      ],
      { env },
    ).toString(),
  ) as { api_key: string; vendor_api_key: string };
  const notaryEmail = `notary-${runIdOf()}@example.com`;
  await inviteCommissionedNotary(apiUrl, account.vendor_api_key, {
    email: notaryEmail,
    firstName: 'Vera',
    lastName: 'Fy',
    commissionNumber: 'TX-777001',
  });
  return { account, notaryEmail };
}

/** Each session's notarized PDF, downloaded through the API that did not create it: how many are signed. */
async function signedPdfsOf(sessions: string[], integrators: Integrator[]): Promise<number> {
  let signedPdfs = 0;
  for (const [i, id] of sessions.entries()) {
    const pdf = await integrators[i % 2].notarizedPdf(id);
    if (pdf.subarray(0, 5).toString() === '%PDF-' && pdf.includes('/ByteRange')) signedPdfs++;
  }
  return signedPdfs;
}

/** Two rounds of sessions through both APIs, the second after a worker was killed; a terminated session. */
async function drive(shape: Awaited<ReturnType<typeof startShape>>, stops: Array<() => Promise<void>>) {
  const { account, notaryEmail } = await provision(shape.env, shape.urls[0]);
  const receiver = new SignatureCheckingReceiver();
  stops.push(() => receiver.stop());
  const callLog = new CallLog();
  const integrators = shape.urls.map((url) => new Integrator(url, account.api_key, callLog));
  const hook = await integrators[1].call('POST', '/api/integrationsv2/webhooks', {
    url: await receiver.start(),
  });
  receiver.trust(hook.body.secret!);
  useDocument(await pdfBytes(1));
  const runId = runIdOf();
  const round = async (name: string, from: number) => {
    const t0 = Date.now();
    const ids = await Promise.all(
      Array.from({ length: SESSIONS_PER_ROUND }, (_, k) =>
        integrators[(from + k) % 2].runSession(from + k, runId, notaryEmail),
      ),
    );
    log(
      `${name}: ${ids.length} sessions completed through both APIs in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    return ids;
  };
  const before = await round('round 1 (2 workers)', 0);
  await shape.workers[0].kill();
  log('worker 1 SIGKILLed (not restarted)');
  const sessions = [...before, ...(await round('round 2 (1 worker left)', SESSIONS_PER_ROUND))];
  const expected = ['session_created', 'session_started', 'session_completed', 'documents_released'];
  await waitUntil(
    'every session’s webhooks',
    async () =>
      sessions.every((id) =>
        expected.every((event) => receiver.receipts.some((r) => r.sessionId === id && r.event === event)),
      ),
    120_000,
  );
  const terminated = await integrators[0].openSession(2 * SESSIONS_PER_ROUND, runId, notaryEmail);
  const endedInMs = await terminatedSessionIsEnded(shape.address, integrators[0], receiver, terminated.id);
  log(
    `a session whose workflow was terminated: recorded cancelled, session_cancelled delivered ` +
      `${(endedInMs / 1000).toFixed(1)} s after the terminate`,
  );
  log(await verifyLiveAct(shape.env, shape.urls[1], shape.s3Endpoint));
  return { sessions, receiver, callLog, signedPdfs: await signedPdfsOf(sessions, integrators) };
}

async function main() {
  const { values: options } = parseArgs({ options: { keep: { type: 'boolean', default: false } } });
  const dir = scratchDirectory('production');
  log(`data and logs in ${dir}`);
  const tools = ensureTemporalServer(log);
  log(`Temporal server: ${toolVersion(tools)} (${TEMPORAL_SERVER_VERSION})`);
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    while (stops.length) await stops.pop()!().catch(() => undefined);
  };
  process.once('SIGINT', () => void stopAll().finally(() => process.exit(130)));
  try {
    const { sessions, receiver, callLog, signedPdfs } = await drive(
      await startShape(dir, tools, stops),
      stops,
    );
    const problems = [
      receiver.badSignatures ? `${receiver.badSignatures} webhooks with a bad signature` : '',
      signedPdfs !== sessions.length ? `${sessions.length - signedPdfs} sessions without a signed PDF` : '',
      callLog.serverErrors.length ? `${callLog.serverErrors.length} 5xx answers other than 503` : '',
    ].filter(Boolean);
    log(
      `${sessions.length} sessions completed; ${receiver.receipts.length} webhooks received, every signature valid: ` +
        `${receiver.badSignatures === 0}; ${signedPdfs} digitally signed PDFs downloaded; answers by status ` +
        JSON.stringify(Object.fromEntries(callLog.statuses)),
    );
    if (problems.length) throw new Error(problems.join('; '));
  } finally {
    await stopAll();
  }
  removeAfterPass(dir, options.keep, log);
}

/**
 * An operator terminates a ready session's workflow; the `terminated-workflow-sweep` Schedule, through this
 * server's visibility store (SQL), records it cancelled and publishes `session_cancelled`. Visibility
 * learns of the terminate a moment later, so the Schedule is asked again until a run has ended it.
 */
async function terminatedSessionIsEnded(
  address: string,
  integrator: Integrator,
  receiver: SignatureCheckingReceiver,
  id: string,
): Promise<number> {
  const connection = await Connection.connect({ address });
  try {
    const client = new Client({ connection, namespace: NAMESPACE });
    const terminatedAt = Date.now();
    await client.workflow.getHandle(`session-${id}`).terminate('verify: an operator terminates a session');
    const schedule = client.schedule.getHandle(TERMINATED_WORKFLOW_SWEEP_SCHEDULE);
    let askedAt = 0;
    await waitUntil(
      'the terminated session recorded cancelled, session_cancelled delivered',
      async () => {
        if (Date.now() - askedAt > 2_000) {
          askedAt = Date.now();
          await schedule.trigger(ScheduleOverlapPolicy.ALLOW_ALL);
        }
        const delivered = receiver.receipts.some(
          (r) => r.sessionId === id && r.event === 'session_cancelled',
        );
        const session = await integrator.call('GET', `/api/integrationsv2/sessions/${id}`);
        return delivered && session.body.status === 'cancelled';
      },
      60_000,
    );
    return Date.now() - terminatedAt;
  } finally {
    await connection.close();
  }
}

main().catch((err: unknown) => {
  log(`FAIL: ${(err as Error).message}`);
  process.exit(1);
});
