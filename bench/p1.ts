import { type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Config } from '../src/config';
import type * as DocumentPoolModule from '../src/documents/documentPool';
import type * as Base64UploadModule from '../src/documents/base64Upload';
import { freePort } from '../test/support/freePort';
import { record, say, ms, mean } from './report';
import { ROOT, cpuSeconds, startProcess, waitUntil } from './processes';
import { CONNECTIONS, Load, load, createUrlOf } from './load';
import { Stack } from './stack';

type Side = 'floor' | 'attributed' | 'api';

/**
 * The measured rounds' order. Temporal's CPU per create moves by half from round to round, in spells of
 * several rounds, and can drift as its store grows. Every side's mean place in the run is the same, any two
 * sides alone go ABBA BAAB (or ABBA ABBA), and short rounds let each side meet every spell.
 */
// prettier-ignore
const ROUNDS: Side[] = [
  'floor', 'attributed', 'api', 'api', 'attributed', 'floor',
  'attributed', 'api', 'floor', 'floor', 'api', 'attributed',
];
const ROUND_ORDER: Side[] = [...ROUNDS, ...[...ROUNDS].reverse()];

const P1_ROUND_SECONDS = 4;

/**
 * Every P1 server runs without V8's memory reducer. Each waits idle while the others are loaded, which no
 * server under steady load does, and the reducer shrinks an idle heap: the next rounds paid to grow it back,
 * most for the side that had waited longest (docs/performance.md).
 */
const STEADY_HEAP = ['--no-memory-reducer'];

const LABEL: Record<Side, string> = { floor: 'floor', attributed: 'floor with attributes', api: 'API' };

interface P1Params {
  stack: Stack;
  apiKey: string;
  accountId: string;
  deed: string;
  bodyWith: (doc: string) => string;
  children: ChildProcess[];
  config: Config;
}

/**
 * A floor server (bench/floorServer.ts) on the same stack, answering creates: bare, or also starting its
 * workflows with the session's search attributes (`attributed`).
 */
async function startFloor(
  p: P1Params,
  side: 'floor' | 'attributed',
  nodeArgs: string[],
): Promise<{ url: string; pid: number }> {
  const floorPort = await freePort();
  const floorUrl = `http://127.0.0.1:${floorPort}`;
  const floor = startProcess(
    [process.execPath, ...nodeArgs, '--import', 'tsx', path.join(ROOT, 'bench', 'floorServer.ts')],
    {
      ...p.stack.env,
      PORT: String(floorPort),
      FLOOR_ACCOUNT_ID: p.accountId,
      FLOOR_TASK_QUEUE: `bench-${side}-unpolled`,
      FLOOR_SEARCH_ATTRIBUTES: side === 'attributed' ? 'session' : '',
    },
  );
  p.children.push(floor);
  await waitUntil(
    'the floor server',
    async () => Boolean(await fetch(floorUrl, { method: 'POST', body: p.bodyWith(p.deed) })),
    60_000,
  );
  return { url: createUrlOf(floorUrl), pid: floor.pid! };
}

/** The three servers P1 loads, each warmed until its own CPU per create settled. */
async function startSides(p: P1Params, headers: Record<string, string>, body: string) {
  const profile = process.env.BENCH_CPU_PROF_DIR;
  // For `perf record`: the servers write the map of their JIT-compiled frames (/tmp/perf-<pid>.map).
  const perfMap = process.env.BENCH_PERF_MAP === '1' ? ['--perf-basic-prof'] : [];
  const profiled = (side: Side) => [
    ...STEADY_HEAP,
    ...perfMap,
    ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${path.join(profile, side)}`] : []),
  ];
  const api = await p.stack.startUnpolledApi('bench-p1-unpolled', profiled('api'));
  const servers: Record<Side, { url: string; pid: number }> = {
    floor: await startFloor(p, 'floor', profiled('floor')),
    attributed: await startFloor(p, 'attributed', profiled('attributed')),
    api: { url: createUrlOf(api.url), pid: api.process.pid! },
  };
  const warm: string[] = [];
  for (const side of ['floor', 'attributed', 'api'] as const) {
    const series = await warmUntilSettled(servers[side].url, servers[side].pid, headers, body);
    warm.push(`${LABEL[side]} ${series.map((m) => m.toFixed(1)).join(', ')} ms`);
  }
  say(`P1 warm-up, own CPU per create in ${WARM_ROUND_SECONDS} s rounds: ${warm.join('; ')}`);
  return servers;
}

/** Each side's rounds in ROUND_ORDER, and its CPU per create summed over them: its process, PostgreSQL, Temporal. */
async function measureRounds(
  stack: Stack,
  servers: Record<Side, { url: string; pid: number }>,
  headers: Record<string, string>,
  body: string,
) {
  const runs: Record<Side, Load[]> = { floor: [], attributed: [], api: [] };
  const cpu: Record<Side, number[]> = { floor: [0, 0, 0], attributed: [0, 0, 0], api: [0, 0, 0] };
  const sample = (side: Side) => {
    const { postgres, temporal } = stack.serverCpu();
    return [cpuSeconds(servers[side].pid), postgres, temporal];
  };
  const rounds: string[] = [];
  for (const side of ROUND_ORDER) {
    const before = sample(side);
    const round = await load(servers[side].url, headers, body, {
      connections: CONNECTIONS,
      seconds: P1_ROUND_SECONDS,
    });
    const perCreate = sample(side).map((after, i) => (after - before[i]) / round.ok);
    perCreate.forEach((seconds, i) => (cpu[side][i] += seconds));
    runs[side].push(round);
    const [own, , temporal] = perCreate.map((seconds) => (seconds * 1000).toFixed(1));
    rounds.push(`${LABEL[side]} ${round.rps.toFixed(0)}/s (${own}, ${temporal} ms)`);
  }
  say(`P1 rounds in order, creates a second (own and Temporal's CPU per create): ${rounds.join(', ')}`);
  return { runs, cpu };
}

/**
 * P1: creates with one signer and a ~50 KB PDF at 16 connections, against the floor and against the API
 * (an API process whose task queue no worker polls, so both do only the request's work), in interleaved
 * rounds so both see the same machine. Beside them, a floor that also sets the search attributes the API
 * sets on every session's workflow, so the report shows what they cost a create.
 */
export async function p1CreateAgainstFloor(p: P1Params) {
  const headers = { authorization: `Bearer ${p.apiKey}`, 'content-type': 'application/json' };
  const body = p.bodyWith(p.deed);
  const servers = await startSides(p, headers, body);
  const { runs, cpu } = await measureRounds(p.stack, servers, headers, body);
  const of = (side: Side, key: 'rps' | 'p50' | 'p99') => mean(runs[side].map((r) => r[key]));
  const failed = Object.values(runs)
    .flat()
    .reduce((n, r) => n + r.failed, 0);
  const throughput = of('api', 'rps') / of('floor', 'rps');
  const p99Ratio = of('api', 'p99') / of('floor', 'p99');
  const kb = (Buffer.byteLength(p.deed, 'base64') / 1024).toFixed(0);
  const requests = (side: Side) => `${of(side, 'rps').toFixed(0)} req/s`;
  record({
    id: 'P1',
    measure: `create throughput, ${kb} KB PDF, ${CONNECTIONS} connections (${runs.api.length} rounds of ${P1_ROUND_SECONDS} s each: floor, floor with attributes and API interleaved, after each one's CPU per create settled; no V8 memory reducer)`,
    value: `API ${requests('api')} vs floor ${requests('floor')} = ${throughput.toFixed(2)}×`,
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
    measure:
      'create throughput against the floor starting its workflows with the search attributes the API sets (BnSessionId, SessionStatus, NotarizationId)',
    value: `API ${requests('api')} vs ${requests('attributed')} = ${(of('api', 'rps') / of('attributed', 'rps')).toFixed(2)}×; that floor ${(of('attributed', 'rps') / of('floor', 'rps')).toFixed(2)}× the bare one`,
    target: 'reported',
    pass: null,
  });
  const split = (side: Side) => {
    const [server, postgres, temporal] = cpu[side].map((seconds) => (seconds / runs[side].length) * 1000);
    // Temporal's CPU in a side's rounds, in cores: the largest share of the machine's two, on every side.
    const cores = ((cpu[side][2] / runs[side].length) * of(side, 'rps')).toFixed(2);
    return `${LABEL[side]} server ${server.toFixed(1)}, PostgreSQL ${postgres.toFixed(1)}, Temporal ${temporal.toFixed(1)} = ${(server + postgres + temporal).toFixed(1)} ms (Temporal ${cores} of a core)`;
  };
  record({
    id: 'P1',
    measure: 'CPU per create in those rounds; the document check alone, on the same PDF',
    value: `${(['api', 'floor', 'attributed'] as const).map(split).join('; ')}; document check ${ms(await documentCheckCpu(p.config, p.deed))}`,
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
 * far more of them than the floor, so a short fixed warm-up measures the API's start-up rather than its
 * throughput.
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

/** A module of src/documents from the build (`npm run bench` builds first), as the API's process loads it. */
async function builtDocumentsModule<Module>(file: string): Promise<Module> {
  return (await import(pathToFileURL(path.join(ROOT, 'dist', 'src', 'documents', file)).href)) as Module;
}

/**
 * CPU (ms) of one document check, the work the floor leaves out: the API's document pool preparing the
 * same upload, at 4 at a time, with nothing else running. The built code, not this process's own: tsx
 * turns every imported byte table into a getter call, which made the same check about four times dearer.
 */
export async function documentCheckCpu(config: Config, base64Doc: string): Promise<number> {
  const { DocumentPool } = await builtDocumentsModule<typeof DocumentPoolModule>('documentPool.js');
  const { decodeBase64Upload } = await builtDocumentsModule<typeof Base64UploadModule>('base64Upload.js');
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
