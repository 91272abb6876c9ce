import { type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { type Config } from '../src/config';
import { DocumentPool } from '../src/documents/documentPool';
import { decodeBase64Upload } from '../src/documents/base64Upload';
import { freePort } from '../test/support/freePort';
import { record, say, ms, mean } from './report';
import { ROOT, cpuSeconds, startProcess, waitUntil } from './processes';
import { CONNECTIONS, ROUND_SECONDS, Load, load } from './load';
import { Stack } from './stack';
import { createUrlOf } from './load';

/**
 * The measured rounds' order. Temporal's CPU per create moves from round to round and can drift as its store
 * grows; in alternating rounds the side that always goes second meets the larger store. ABBA BAAB gives both
 * sides the same mean place in the run, so a steady drift cancels.
 */
const ROUND_ORDER = ['floor', 'api', 'api', 'floor', 'api', 'floor', 'floor', 'api'] as const;

/** The floor server (bench/floorServer.ts) on the same stack, answering creates; its URL. */
async function startFloor(p: {
  stack: Stack;
  accountId: string;
  deed: string;
  bodyWith: (doc: string) => string;
  children: ChildProcess[];
  nodeArgs: string[];
}): Promise<string> {
  const floorPort = await freePort();
  const floorUrl = `http://127.0.0.1:${floorPort}`;
  const floor = startProcess(
    [process.execPath, ...p.nodeArgs, '--import', 'tsx', path.join(ROOT, 'bench', 'floorServer.ts')],
    {
      ...p.stack.env,
      PORT: String(floorPort),
      FLOOR_ACCOUNT_ID: p.accountId,
      FLOOR_TASK_QUEUE: 'bench-floor-unpolled',
    },
  );
  p.children.push(floor);
  await waitUntil(
    'the floor server',
    async () => Boolean(await fetch(floorUrl, { method: 'POST', body: p.bodyWith(p.deed) })),
    60_000,
  );
  return floorUrl;
}

/**
 * P1: creates with one signer and a ~50 KB PDF at 16 connections, against the floor and against the API
 * (an API process whose task queue no worker polls, so both do only the request's work), in alternating
 * rounds so both see the same machine.
 */
export async function p1CreateAgainstFloor(p: {
  stack: Stack;
  apiKey: string;
  accountId: string;
  deed: string;
  bodyWith: (doc: string) => string;
  children: ChildProcess[];
  config: Config;
}) {
  const profile = process.env.BENCH_CPU_PROF_DIR;
  // For `perf record`: both servers write the map of their JIT-compiled frames (/tmp/perf-<pid>.map).
  const perfMap = process.env.BENCH_PERF_MAP === '1' ? ['--perf-basic-prof'] : [];
  const profiled = (side: string) =>
    profile ? [...perfMap, '--cpu-prof', `--cpu-prof-dir=${path.join(profile, side)}`] : perfMap;
  const api = await p.stack.startUnpolledApi('bench-p1-unpolled', profiled('api'));
  const floorUrl = await startFloor({ ...p, nodeArgs: profiled('floor') });
  const headers = { authorization: `Bearer ${p.apiKey}`, 'content-type': 'application/json' };
  const body = p.bodyWith(p.deed);
  const target = { floor: createUrlOf(floorUrl), api: createUrlOf(api.url) };
  // Where each side's CPU goes, per create: its own process, PostgreSQL's backends, the Temporal server.
  const servers = { api: api.process.pid!, floor: p.children.at(-1)!.pid! };
  const warmed = {
    floor: await warmUntilSettled(target.floor, servers.floor, headers, body),
    api: await warmUntilSettled(target.api, servers.api, headers, body),
  };
  const series = (ms: number[]) => ms.map((m) => m.toFixed(1)).join(', ');
  say(
    `P1 warm-up, own CPU per create in ${WARM_ROUND_SECONDS} s rounds: floor ${series(warmed.floor)} ms; API ${series(warmed.api)} ms`,
  );
  const runs: Record<'floor' | 'api', Load[]> = { floor: [], api: [] };
  const cpu = { floor: [0, 0, 0], api: [0, 0, 0] };
  const sample = (side: 'floor' | 'api') => {
    const { postgres, temporal } = p.stack.serverCpu();
    return [cpuSeconds(servers[side]), postgres, temporal];
  };
  const rounds: string[] = [];
  for (const side of ROUND_ORDER) {
    const before = sample(side);
    const round = await load(target[side], headers, body, { connections: CONNECTIONS });
    const perCreate = sample(side).map((after, i) => (after - before[i]) / round.ok);
    perCreate.forEach((seconds, i) => (cpu[side][i] += seconds));
    runs[side].push(round);
    rounds.push(`${side} ${round.rps.toFixed(0)}/s (Temporal ${(perCreate[2] * 1000).toFixed(1)} ms)`);
  }
  say(`P1 rounds in order, creates a second and Temporal's CPU per create: ${rounds.join(', ')}`);
  const split = (side: 'floor' | 'api') => {
    const [server, postgres, temporal] = cpu[side].map((seconds) => (seconds / runs[side].length) * 1000);
    return `server ${server.toFixed(1)}, PostgreSQL ${postgres.toFixed(1)}, Temporal ${temporal.toFixed(1)} = ${(server + postgres + temporal).toFixed(1)} ms`;
  };
  const of = (side: 'floor' | 'api', key: 'rps' | 'p50' | 'p99') => mean(runs[side].map((r) => r[key]));
  // Temporal's CPU in a side's rounds, in cores: the largest share of the machine's two, on either side.
  const temporalCores = (side: 'floor' | 'api') =>
    ((cpu[side][2] / runs[side].length) * of(side, 'rps')).toFixed(2);
  const failed = [...runs.floor, ...runs.api].reduce((n, r) => n + r.failed, 0);
  const throughput = of('api', 'rps') / of('floor', 'rps');
  const p99Ratio = of('api', 'p99') / of('floor', 'p99');
  const kb = (Buffer.byteLength(p.deed, 'base64') / 1024).toFixed(0);
  record({
    id: 'P1',
    measure: `create throughput, ${kb} KB PDF, ${CONNECTIONS} connections (${runs.api.length} ${ROUND_SECONDS} s rounds each, floor and API in the order ABBA BAAB, after ${warmed.floor.length * WARM_ROUND_SECONDS} s and ${warmed.api.length * WARM_ROUND_SECONDS} s of warm-up, until each one's CPU per create settled)`,
    value: `API ${of('api', 'rps').toFixed(0)} req/s vs floor ${of('floor', 'rps').toFixed(0)} req/s = ${throughput.toFixed(2)}×`,
    target: '≥ 0.95× the floor',
    pass: throughput >= 0.95 && failed === 0,
  });
  record({
    id: 'P1',
    measure: 'create latency under that load',
    value: `API p50 ${ms(of('api', 'p50'))}, p99 ${ms(of('api', 'p99'))}; floor p50 ${ms(of('floor', 'p50'))}, p99 ${ms(of('floor', 'p99'))}; p99 ${p99Ratio.toFixed(2)}×; ${failed} non-2xx`,
    target: 'API p99 ≤ 2× the floor’s, no failures',
    pass: p99Ratio <= 2 && failed === 0,
  });
  record({
    id: 'P1',
    measure: 'CPU per create in those rounds, Temporal’s in cores; the document check alone, on the same PDF',
    value: `API ${split('api')}; floor ${split('floor')}; Temporal busy ${temporalCores('api')} and ${temporalCores('floor')} of a core; document check ${ms(await documentCheckCpu(p.config, p.deed))}`,
    target: 'reported',
    pass: null,
  });
}

export const WARM_ROUND_SECONDS = 4;

export const MIN_WARM_ROUNDS = 6;

export const MAX_WARM_ROUNDS = 10;

/**
 * Loads a freshly started server until its own CPU per create settles: at least MIN_WARM_ROUNDS rounds,
 * then until a round is within 10 % of the one before, at most MAX_WARM_ROUNDS; answers each round's CPU per
 * create (ms). V8 compiles a process's hot paths over its first tens of seconds under load, and the API has
 * far more of them than the floor: in 4 s rounds from a fresh start the API's CPU per create went 6.7, 5.7,
 * 5.2, 5.4, 5.2, 4.9, 4.8, 4.0, 4.6, 4.1, 3.7 ms (the floor's settles within about 12 s), so the 3 s warm-up
 * P1 had before measured the API's start-up rather than its throughput.
 */
export async function warmUntilSettled(
  url: string,
  pid: number,
  headers: Record<string, string>,
  body: string,
): Promise<number[]> {
  const perCreate: number[] = [];
  const settled = () => {
    const [before, last] = perCreate.slice(-2);
    return perCreate.length >= MIN_WARM_ROUNDS && Math.abs(last - before) <= 0.1 * before;
  };
  while (perCreate.length < MAX_WARM_ROUNDS && !settled()) {
    const before = cpuSeconds(pid);
    const round = await load(url, headers, body, { connections: CONNECTIONS, seconds: WARM_ROUND_SECONDS });
    perCreate.push(((cpuSeconds(pid) - before) * 1000) / round.ok);
  }
  return perCreate;
}

/**
 * CPU (ms) of one document check, the work the floor leaves out: the API's document pool preparing the
 * same upload, at 4 at a time, with nothing else running.
 */
export async function documentCheckCpu(config: Config, base64Doc: string): Promise<number> {
  const pool = new DocumentPool({ ...config.documentWork, soffice: config.libreofficePath });
  try {
    const check = () => pool.prepare('deed.pdf', decodeBase64Upload(base64Doc), 'session_documents[0]');
    const checks = async (count: number) => {
      let started = 0;
      const lane = async () => {
        while (started++ < count) await check();
      };
      await Promise.all([lane(), lane(), lane(), lane()]);
    };
    await checks(500);
    const before = process.cpuUsage();
    await checks(2_000);
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000 / 2_000;
  } finally {
    await pool.close();
  }
}
