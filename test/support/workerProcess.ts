import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testEnvironment } from './environment';
import { eventually } from './eventually';

const ROOT = path.join(__dirname, '..', '..');

export interface WorkerProcess {
  /** SIGKILL: the process dies at once, inside whatever workflow task or activity it was running. */
  kill(): void;
  /** Settles once the process has exited. */
  exited: Promise<void>;
  /** Its log lines so far at warn level or above (pino's 40 and up). */
  warnings(): string[];
}

/** Whether a process still runs (a zombie has ended). */
export function processRuns(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The production worker entry point as a process of its own, polling the suite's task queue(s). */
export async function startWorkerProcess(settings: Record<string, string> = {}): Promise<WorkerProcess> {
  // Node itself with tsx's loader, not tsx's CLI: that runs Node as a child of its own, which a SIGKILL
  // of the CLI would leave running.
  // Its health file, as a container's healthcheck reads it, says when it polls at any LOG_LEVEL.
  const healthFile = path.join(os.tmpdir(), `worker-health-${crypto.randomUUID()}`);
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start-worker.ts'], {
    cwd: ROOT,
    env: { ...testEnvironment().processEnv, LOG_LEVEL: 'info', WORKER_HEALTH_FILE: healthFile, ...settings },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let exitCode: number | null | undefined;
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      fs.rmSync(healthFile, { force: true });
      resolve();
    }),
  );
  const worker = {
    kill: () => void child.kill('SIGKILL'),
    exited,
    warnings: () => output.split('\n').filter((line) => /"level":[4-6]0\b/.test(line)),
  };
  try {
    await eventually(
      () => ({ running: fs.existsSync(healthFile), exitCode }),
      (s) => s.running || s.exitCode !== undefined,
      'the worker process to poll its task queue',
      { timeoutMs: 60_000 },
    );
  } catch (err) {
    worker.kill();
    throw err;
  }
  if (exitCode !== undefined) throw new Error(`the worker process exited (${exitCode}): ${output}`);
  return worker;
}
