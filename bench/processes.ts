import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { productionNodeArgs } from '../src/process';

/**
 * `npm run bench`: performance on real services, each figure beside its target, as ratios measured side
 * by side in one run where absolute times move with the machine. The API and the worker run from their
 * production entry points in processes of their own; P1's floor is `bench/floorServer.ts`.
 * Prints a table and writes it as JSON to .data/bench/latest.json; exits 1 when a target is missed.
 */
export const ROOT = path.join(__dirname, '..');

export function procStatus(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]) / 1024;
}

/** Resets a process's peak RSS (VmHWM) to its current RSS, so the next peak is the next operation's. */
export const resetPeak = (pid: number) => fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');

/**
 * CPU seconds (user + system) a process has used; with `endedChildren`, also those of its children that
 * have ended (PostgreSQL's postmaster holds the time of every backend that has closed).
 */
export function cpuSeconds(pid: number, { endedChildren = false } = {}): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const own = Number(fields[11]) + Number(fields[12]);
  return (endedChildren ? own + Number(fields[13]) + Number(fields[14]) : own) / 100;
}

/**
 * CPU seconds of the processes whose command line matches and of their children, ended ones included:
 * PostgreSQL's postmaster holds the time of every backend the pool closed during a round.
 */
export function cpuOfTree(root: RegExp): number {
  const processes = fs
    .readdirSync('/proc')
    .filter((f) => /^\d+$/.test(f))
    .flatMap((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
        return [
          { pid: Number(pid), ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]), cmdline },
        ];
      } catch {
        return []; // The process ended between the listing and the read.
      }
    });
  const roots = new Set(processes.filter((p) => root.test(p.cmdline)).map((p) => p.pid));
  let total = 0;
  for (const p of processes.filter((p) => roots.has(p.pid) || roots.has(p.ppid))) {
    try {
      total += cpuSeconds(p.pid, { endedChildren: true });
    } catch {
      // As above.
    }
  }
  return total;
}

/** Whether `cpu` (CPU seconds so far) grows by less than `share` of a core over the next `seconds`. */
export async function quietFor(cpu: () => number, seconds: number, share: number): Promise<boolean> {
  const before = cpu();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  return (cpu() - before) / seconds < share;
}

/** Whether the worker used under 5 % of a core over the next `seconds`: it has no backlog left. */
export const workerQuietFor = (pid: number, seconds: number) =>
  quietFor(() => cpuSeconds(pid), seconds, 0.05);

export const childProcesses = new Set<ChildProcess>();
process.once('exit', () => childProcesses.forEach((child) => child.kill('SIGKILL')));

export function startProcess(command: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(command[0], command.slice(1), { env, stdio: ['ignore', 'ignore', 'inherit'] });
  childProcesses.add(child);
  return child;
}

export const node = (script: string) => [
  process.execPath,
  ...productionNodeArgs(script),
  path.join(ROOT, 'dist', 'scripts', script),
];

export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
  everyMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export const ready = (url: string) => waitUntil(url, async () => (await fetch(`${url}/readyz`)).ok, 120_000);
