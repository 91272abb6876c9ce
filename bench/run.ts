import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config';
import { provideBackingServices } from '../src/infra/services';
import { createDatabase } from '../src/db/database';
import { migrateExclusively } from '../src/db/migrator';
import { addNetworkNotary, createAccount } from '../src/services/accounts';
import { createNetworkLoginLink } from '../src/network/networkPeople';
import { loadSigningIdentity } from '../src/signing/identity';
import { pdfBytes, MB10 } from '../test/support/documents';
import { WebhookReceiver } from '../test/support/webhookReceiver';
import { freePort } from '../test/support/freePort';

/**
 * Performance measurements on real services (`npm run bench`): the API and the worker run as their
 * production entry points in their own processes, so memory is that of the API process alone.
 */

const ROOT = path.join(__dirname, '..');

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

/** Peak resident memory of a process so far (VmHWM), in MiB. */
function peakRssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

function startProcess(script: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'scripts', script)], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  process.once('exit', () => child.kill('SIGKILL'));
  return child;
}

async function waitReady(url: string) {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('API did not become ready');
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'notarization-bench-'));
  fs.chmodSync(dataDir, 0o755);
  const port = await freePort();
  const settings = {
    NODE_ENV: 'production',
    // No identity vendor is configured here: the sandbox stands in, as in a staging deployment.
    ALLOW_SANDBOX_IDENTITY: 'true',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    JWT_SECRET: crypto.randomBytes(32).toString('hex'),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    EMBEDDED_POSTGRES_PORT: String(await freePort()),
    TEMPORAL_DEV_PORT: String(await freePort()),
    TEMPORAL_UI_PORT: String(await freePort()),
    TEMPORAL_TASK_QUEUE: 'bench',
    // Every simulated client calls from this one loopback address.
    RATE_LIMIT_PER_CLIENT_PER_MINUTE: '1000000',
  };
  const config = loadConfig({ ...process.env, ...settings });
  // Production entry points need a signing certificate: a development one, passed as an operator would.
  const identity = loadSigningIdentity({ ...config, nodeEnv: 'development' });
  const p12Path = path.join(dataDir, 'signing', 'signer.p12');
  Object.assign(settings, { SIGNING_P12_PATH: p12Path, SIGNING_P12_PASSPHRASE: identity.passphrase });
  const services = await provideBackingServices(config, {
    persistentTemporal: false,
    log: (l) => console.error(l),
  });
  const env = {
    ...process.env,
    ...settings,
    DATABASE_URL: services.databaseUrl,
    TEMPORAL_ADDRESS: services.temporalAddress,
  };
  const sequelize = createDatabase(services.databaseUrl);
  await migrateExclusively(sequelize);
  const api = startProcess('start-api.js', env);
  const worker = startProcess('start-worker.js', env);
  // Interrupted (Ctrl-C, a CI timeout): stop the embedded servers too, so nothing is left running.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      api.kill('SIGKILL');
      worker.kill('SIGKILL');
      void services.stop().finally(() => process.exit(130));
    });
  }
  const apiUrl = `http://127.0.0.1:${port}`;
  const results: string[] = [];
  try {
    await waitReady(apiUrl);
    const account = await createAccount(sequelize, { name: 'Bench', autoOnboarding: true });
    const auth = { authorization: `Bearer ${account.api_key}`, 'content-type': 'application/json' };
    const notaryEmail = 'bench-notary@example.com';
    // Only a commissioned notary can be named: the invite onboards them (automatic onboarding).
    const invited = await fetch(`${apiUrl}/api/integrationsv2/team_members/invite`, {
      method: 'POST',
      headers: { ...auth, authorization: `Bearer ${account.vendor_api_key}` },
      body: JSON.stringify({
        email: notaryEmail,
        business_role: 'notary',
        first_name: 'Bench',
        last_name: 'Notary',
        state: 'TX',
        county: 'Travis',
        commission_number: 'TX-000001',
        commission_expires_on: '2035-12-31',
      }),
    });
    if (invited.status !== 201) throw new Error(`notary invite: ${invited.status} ${await invited.text()}`);

    // 1. One create with a 10 MB document: latency and growth of the API process's peak RSS.
    const big = (await pdfBytes(3, MB10)).toString('base64');
    const bodyOf = () =>
      JSON.stringify({
        signing_type: 'ron',
        notarization_id: `B${crypto.randomUUID().replace(/-/g, '')}`,
        notarization_timing_type: 'notarize_now',
        session_type: 'gnw',
        session_notary_email: notaryEmail,
        all_signers: [
          {
            email: 'signer@example.com',
            first_name: 'Sam',
            last_name: 'Signer',
            authentication_type: 'skip',
          },
        ],
        session_documents: [{ name: 'deed.pdf', base64Doc: big }],
      });
    const createLatencies: number[] = [];
    const peakGrowth: number[] = [];
    for (let i = 0; i < 5; i++) {
      const body = bodyOf();
      const before = peakRssMiB(api.pid!);
      const baseline = rssMiB(api.pid!);
      const started = performance.now();
      const res = await fetch(`${apiUrl}/api/integrationsv2/sessions`, {
        method: 'POST',
        headers: auth,
        body,
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`create failed: ${res.status}`);
      createLatencies.push(performance.now() - started);
      peakGrowth.push(Math.max(0, peakRssMiB(api.pid!) - Math.max(before, baseline)));
      if (i === 0) peakGrowth[0] = peakRssMiB(api.pid!) - baseline;
    }
    results.push(
      `create with one 10 MB document (5 runs): latency p50 ${fmt(percentile(createLatencies, 50))}, max ${fmt(Math.max(...createLatencies))}; ` +
        `API peak RSS growth over its resident baseline on the first create ${peakGrowth[0].toFixed(1)} MiB ` +
        `(body ${(Buffer.byteLength(bodyOf()) / 2 ** 20).toFixed(1)} MiB), later creates raise the peak by at most ${Math.max(...peakGrowth.slice(1)).toFixed(1)} MiB`,
    );

    // 2. Team list with an e-mail filter at 100k members.
    const team = await createAccount(sequelize, { name: 'Big vendor' });
    await sequelize.query(
      `WITH u AS (
         INSERT INTO users (email)
         SELECT 'member' || g || '.' || md5(g::text) || '@vendor' || (g % 50) || '.example.com'
           FROM generate_series(1, 100000) g RETURNING id, email)
       INSERT INTO account_members (account_id, user_id, business_role, first_name, last_name)
       SELECT $1, id, 'notary', 'First' || split_part(email, '.', 1), 'Last' FROM u`,
      { bind: [team.account_id] },
    );
    await sequelize.query('ANALYZE users; ANALYZE account_members;');
    const vendorAuth = { authorization: `Bearer ${team.vendor_api_key}` };
    const listLatencies: number[] = [];
    const fragments = ['member123', 'vendor7.', 'e4f', '99999', 'nomatch-xyz', 'MEMBER5', '@vendor1'];
    for (let i = 0; i < 210; i++) {
      const q = encodeURIComponent(fragments[i % fragments.length]);
      const started = performance.now();
      const res = await fetch(`${apiUrl}/api/integrationsv2/team_members?email=${q}&limit=25`, {
        headers: vendorAuth,
      });
      await res.json();
      if (i >= 10) listLatencies.push(performance.now() - started);
    }
    results.push(
      `team list at 100k members with an e-mail filter (200 requests): p50 ${fmt(percentile(listLatencies, 50))}, p99 ${fmt(percentile(listLatencies, 99))}`,
    );

    // 3. Completion of a session with five 10 MB documents: time to notarized, signed PDFs, and the
    // worker's peak memory (it handles one document at a time).
    const five = JSON.parse(bodyOf());
    five.session_documents = await Promise.all(
      [1, 2, 3, 4, 5].map(async (i) => ({
        name: `deed-${i}.pdf`,
        base64Doc: (await pdfBytes(3, MB10, `Deed ${i}`)).toString('base64'),
      })),
    );
    const fiveRes = await fetch(`${apiUrl}/api/integrationsv2/sessions`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify(five),
    });
    const fiveSession = (await fiveRes.json()) as { bn_session_id: string; bn_signing_url: string };
    five.session_documents = undefined;
    const sessionUrl = `${apiUrl}/api/integrationsv2/sessions/${fiveSession.bn_session_id}`;
    const waitFor = async (predicate: (s: { status: string; documents_status: string }) => boolean) => {
      const deadline = Date.now() + 120_000;
      while (Date.now() < deadline) {
        const s = (await (await fetch(sessionUrl, { headers: auth })).json()) as {
          status: string;
          documents_status: string;
        };
        if (predicate(s)) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('the session did not reach the expected state (is the worker running?)');
    };
    await waitFor((s) => s.status === 'ready');
    await fetch(`${apiUrl}${fiveSession.bn_signing_url}/join`, { method: 'POST' });
    await fetch(`${sessionUrl}/start`, { method: 'POST', headers: auth, body: '{}' });
    const workerBaseline = rssMiB(worker.pid!);
    const workerPeakBefore = peakRssMiB(worker.pid!);
    const completeStarted = performance.now();
    await fetch(`${sessionUrl}/complete`, { method: 'POST', headers: auth, body: '{}' });
    await waitFor((s) => s.documents_status === 'released');
    const completionMs = performance.now() - completeStarted;
    results.push(
      `completion of a session with five 10 MB documents (stamp, certificate page, PAdES signature each): ${(completionMs / 1000).toFixed(1)} s; ` +
        `worker resident before ${workerBaseline.toFixed(0)} MiB, peak during completion ${peakRssMiB(worker.pid!).toFixed(0)} MiB ` +
        `(peak before ${workerPeakBefore.toFixed(0)} MiB)`,
    );

    // 4. Event-to-receiver latency over 100 sessions.
    const receiver = new WebhookReceiver();
    const hookUrl = await receiver.start();
    await fetch(`${apiUrl}/api/integrationsv2/webhooks`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ url: hookUrl, events: ['session_created'] }),
    });
    const small = (await pdfBytes(1)).toString('base64');
    for (let i = 0; i < 100; i++) {
      const res = await fetch(`${apiUrl}/api/integrationsv2/sessions`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ ...JSON.parse(bodyOf().replace(big, small)) }),
      });
      await res.arrayBuffer();
    }
    await receiver.waitFor((r) => r.length >= 100, 120_000);
    const eventLatencies = receiver.received.map((r) => r.receivedAt - Date.parse(r.json.created_at));
    results.push(
      `event-to-receiver latency over 100 sessions (event recorded → webhook received): p50 ${fmt(percentile(eventLatencies, 50))}, p99 ${fmt(percentile(eventLatencies, 99))}`,
    );
    // The same, one session at a time: the path's own latency, without the burst's queueing.
    const idleLatencies: number[] = [];
    for (let i = 0; i < 20; i++) {
      const before = receiver.received.length;
      const res = await fetch(`${apiUrl}/api/integrationsv2/sessions`, {
        method: 'POST',
        headers: auth,
        body: bodyOf().replace(big, small),
      });
      await res.arrayBuffer();
      const [hook] = (await receiver.waitFor((r) => r.length > before, 20_000)).slice(before);
      idleLatencies.push(hook.receivedAt - Date.parse(hook.json.created_at));
    }
    results.push(
      `event-to-receiver latency, one session at a time (20 sessions): p50 ${fmt(percentile(idleLatencies, 50))}, max ${fmt(Math.max(...idleLatencies))}`,
    );
    await receiver.stop();

    // 5. Time to notary on the on-demand network: from the signer's join to the offer a network notary
    // sees, and to the session being ready once they accept (10 sessions, one notary, one at a time).
    const networkEmail = 'bench-network@example.com';
    await addNetworkNotary(sequelize, {
      email: networkEmail,
      firstName: 'Bench',
      lastName: 'Network',
      state: 'OK',
      commissionNumber: 'OK-1',
      commissionExpiresOn: '2099-12-31',
    });
    const link = new URL(
      (await createNetworkLoginLink(sequelize, { frontUrl: apiUrl, lifetimeSeconds: 3600 }, networkEmail))
        .login_link,
    );
    const signedIn = (await (
      await fetch(`${apiUrl}/api/integrationsv2/auth/login_link`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          login_link_id: link.pathname.split('/').at(-1),
          key: link.searchParams.get('key'),
        }),
      })
    ).json()) as { access_token: string };
    const notaryAuth = {
      authorization: `Bearer ${signedIn.access_token}`,
      'content-type': 'application/json',
    };
    const toOffer: number[] = [];
    const toReady: number[] = [];
    for (let i = 0; i < 10; i++) {
      const onDemand = JSON.parse(bodyOf().replace(big, small));
      delete onDemand.session_notary_email;
      onDemand.state_specific_notary = 'OK';
      const created = (await (
        await fetch(`${apiUrl}/api/integrationsv2/sessions`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify(onDemand),
        })
      ).json()) as { bn_session_id: string; bn_signing_url: string };
      const joinedAt = performance.now();
      await fetch(`${apiUrl}${created.bn_signing_url}/join`, { method: 'POST' });
      for (;;) {
        const mine = (await (
          await fetch(`${apiUrl}/api/integrationsv2/me/sessions`, { headers: notaryAuth })
        ).json()) as {
          sessions: Array<{ bn_session_id: string; relation: string }>;
        };
        if (mine.sessions.some((s) => s.bn_session_id === created.bn_session_id && s.relation === 'offered'))
          break;
        if (performance.now() - joinedAt > 60_000) throw new Error('no offer within a minute');
        await new Promise((r) => setTimeout(r, 20));
      }
      toOffer.push(performance.now() - joinedAt);
      const accepted = await fetch(
        `${apiUrl}/api/integrationsv2/me/sessions/${created.bn_session_id}/accept`,
        {
          method: 'POST',
          headers: notaryAuth,
          body: '{}',
        },
      );
      if (((await accepted.json()) as { status: string }).status !== 'ready')
        throw new Error('accept did not make the session ready');
      toReady.push(performance.now() - joinedAt);
      await fetch(`${apiUrl}/api/integrationsv2/sessions/${created.bn_session_id}/cancel`, {
        method: 'POST',
        headers: auth,
        body: '{}',
      });
      // The notary is free for the next session once the cancellation is recorded.
      while (
        (
          (await (
            await fetch(`${apiUrl}/api/integrationsv2/sessions/${created.bn_session_id}`, { headers: auth })
          ).json()) as {
            status: string;
          }
        ).status !== 'cancelled'
      )
        await new Promise((r) => setTimeout(r, 20));
    }
    results.push(
      `time to notary on the network (10 on-demand sessions, one free notary): signer joins → offer visible p50 ${fmt(percentile(toOffer, 50))}, max ${fmt(Math.max(...toOffer))}; ` +
        `signer joins → accepted and ready p50 ${fmt(percentile(toReady, 50))}, max ${fmt(Math.max(...toReady))} (a real notary's reaction time comes on top)`,
    );
  } finally {
    api.kill('SIGTERM');
    worker.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 2_000));
    await sequelize.close();
    await services.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(['', 'Benchmark results', ...results.map((r) => `- ${r}`), ''].join('\n'));
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
