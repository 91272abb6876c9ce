/**
 * `npm run probe:holes`: the holes of issue 58's security review, reproduced against the production shape
 * (PostgreSQL, Temporal, one API and one worker from their production entry points). Each row repeats
 * the attack as the review ran it and passes when the service no longer gives way. Not part of `npm test`
 * (about three minutes); prints a table and exits 1 when a row fails.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createDatabase } from '../src/db/database';
import { type CreatedAccount } from '../src/accounts/accounts';
import { queryRows } from '../src/db/query';
import { productionCluster, type Cluster } from '../faults/cluster';
import { ID_FRONT, SELFIE, photo } from '../test/support/identity';
import type { Sequelize } from 'sequelize';
import { run, Row, Client, accountWithNotary, readySession } from './holesClient';
import { forgedCommission } from './holesCommission';
import { largeBodies, completionLookups, pageHeaders } from './holesRequests';
const log = (line: string) => process.stderr.write(`[holes] ${line}\n`);
/** 2: 8 and 20 concurrent ID checks (one valid), in 15 bursts each on a fresh signer. */
async function parallelIdChecks(
  api: Client,
  sequelize: Sequelize,
  account: CreatedAccount,
  notaryEmail: string,
) {
  const rows: Row[] = [];
  for (const width of [8, 20]) {
    const scored: number[] = [];
    let beaten = 0;
    for (let burst = 0; burst < 15; burst++) {
      const session = await readySession(api, account, notaryEmail, 'biometrics');
      await api.call(`${session.bn_signing_url}/join`, { body: {} });
      const unreadable = {
        id_front: photo(200, 120, 'ID').toString('base64'),
        selfie: SELFIE.toString('base64'),
      };
      const valid = { id_front: ID_FRONT.toString('base64'), selfie: SELFIE.toString('base64') };
      await Promise.all(
        Array.from({ length: width }, (_, i) =>
          api.call(`${session.bn_signing_url}/identity/id_check`, {
            body: i === width - 1 ? valid : unreadable,
          }),
        ),
      );
      const attempts = await queryRows<{ attempt: number }>(
        sequelize,
        `SELECT attempt FROM identity_checks WHERE session_id = $1 AND method = 'biometrics'`,
        { bind: [session.bn_session_id] },
      );
      scored.push(attempts.length);
      if (attempts.length > 2 || new Set(attempts.map((a) => a.attempt)).size !== attempts.length) beaten++;
    }
    rows.push({
      hole: `2. ${width} concurrent ID checks (${width - 1} unreadable, 1 valid), 15 bursts`,
      before:
        '11 of 15 bursts scored more than 2; attempts duplicated (1,1,1,2,2); the valid one passed after 3–4 failures',
      after: `attempts scored per burst: ${scored.join(',')}; bursts over the limit: ${beaten}`,
      pass: beaten === 0,
    });
  }
  return rows;
}
/** 3: the API's production entry point under NODE_ENV values that are not development or test. */
async function sandboxOutsideDevelopment(cluster: Cluster): Promise<Row> {
  const answers: string[] = [];
  let refused = 0;
  for (const nodeEnv of ['staging', 'prod']) {
    try {
      await run(process.execPath, [path.join(__dirname, '..', 'dist', 'scripts', 'start-api.js')], {
        env: {
          ...process.env,
          NODE_ENV: nodeEnv,
          PORT: '0',
          DATABASE_URL: cluster.databaseUrl,
          TEMPORAL_ADDRESS: cluster.temporalAddress,
          JWT_SECRET: crypto.randomBytes(32).toString('hex'),
          LOG_LEVEL: 'warn',
        },
        timeout: 30_000,
      });
      answers.push(`${nodeEnv}: started`);
    } catch (err) {
      const e = err as { code: number; stderr: string };
      const line = e.stderr.trim().split('\n');
      if (e.code === 1 && line.length === 1 && line[0].includes('ALLOW_SANDBOX_IDENTITY')) refused++;
      answers.push(`${nodeEnv}: exit ${e.code}, "${line.at(-1)?.slice(0, 80)}…"`);
    }
  }
  return {
    hole: '3. the API on the sandbox identity provider under NODE_ENV=staging and NODE_ENV=prod',
    before: 'started (only NODE_ENV=production refused)',
    after: answers.join('; '),
    pass: refused === 2,
  };
}
async function main() {
  const { cluster, dataDir } = await productionCluster(
    'holes',
    { RATE_LIMIT_PER_CLIENT_PER_MINUTE: '600' },
    log,
  );
  await cluster.startAll();
  const sequelize = createDatabase(cluster.databaseUrl);
  const rows: Row[] = [];
  try {
    const api = new Client(cluster.apiUrl);
    const { account, notaryEmail } = await accountWithNotary(api, sequelize, {
      name: 'Probe account',
      testMode: true,
    });
    log('1: the login-link chain');
    rows.push(...(await forgedCommission(api, sequelize)));
    log('2: parallel ID checks');
    rows.push(...(await parallelIdChecks(api, sequelize, account, notaryEmail)));
    log('3: the sandbox outside development');
    rows.push(await sandboxOutsideDevelopment(cluster));
    log('4: large bodies to unknown links');
    rows.push(await largeBodies(api, cluster));
    const headersOf = await readySession(api, account, notaryEmail);
    log('6: page headers');
    rows.push(await pageHeaders(api, headersOf.bn_signing_url));
    log('5: completion page lookups (last: it spends the per-client rate limit)');
    rows.push(await completionLookups(api, account, notaryEmail));
  } finally {
    await sequelize.close();
    await cluster.stopAll();
  }
  process.stdout.write('| hole | before | after | result |\n| --- | --- | --- | --- |\n');
  for (const r of rows)
    process.stdout.write(`| ${r.hole} | ${r.before} | ${r.after} | ${r.pass ? 'PASS' : 'FAIL'} |\n`);
  fs.writeFileSync(path.join(dataDir, 'probe-holes.json'), JSON.stringify(rows, null, 2));
  process.exit(rows.every((r) => r.pass) ? 0 : 1);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
