import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { SetupError } from '../../src/setupErrors';

export interface ManagedChild {
  child: ChildProcess;
  exited(): boolean;
  /** Sends `signal`, escalates to SIGKILL after `killAfterMs`, resolves on exit. */
  stop(signal: NodeJS.Signals, killAfterMs: number): Promise<void>;
}

/**
 * The servers spawned and not stopped yet, each signalled to stop if our process exits first: one 'exit'
 * hook for all of them, since a process may run several stacks (the bench runs three).
 */
const unstopped = new Set<() => void>();
const signalEveryServer = () => unstopped.forEach((signalStop) => signalStop());
process.once('exit', signalEveryServer);

/**
 * A SIGINT or SIGTERM that nothing else handles (one during `npm start`'s start-up, or a tool's) kills the
 * process without 'exit': signal the servers first, then die of it as Node would have.
 */
function dieOfSignal(signal: NodeJS.Signals) {
  if (process.listenerCount(signal) > 1) return;
  signalEveryServer();
  process.removeListener(signal, dieOfSignal);
  process.kill(process.pid, signal);
}
let watchingSignals = false;

/**
 * Spawns a server in its own process group with output appended to a log file: a terminal Ctrl-C then
 * reaches only our process, which stops the servers in order after draining. If our process exits, or a
 * signal no one handles ends it, without stopping them, they are still signalled to stop.
 */
export function spawnServer(
  command: string,
  args: string[],
  logFile: string,
  options: SpawnOptions & { exitSignal: NodeJS.Signals },
): ManagedChild {
  if (!watchingSignals) {
    watchingSignals = true;
    process.on('SIGINT', dieOfSignal);
    process.on('SIGTERM', dieOfSignal);
  }
  const fd = fs.openSync(logFile, 'a');
  const { exitSignal, ...spawnOptions } = options;
  const child = spawn(command, args, { ...spawnOptions, detached: true, stdio: ['ignore', fd, fd] });
  fs.closeSync(fd);
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const killOnExit = () => {
    if (!exited()) child.kill(exitSignal);
  };
  unstopped.add(killOnExit);
  child.once('exit', () => unstopped.delete(killOnExit));
  return {
    child,
    exited,
    async stop(signal, killAfterMs) {
      unstopped.delete(killOnExit);
      if (exited()) return;
      const done = once(child, 'exit');
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      await done;
      clearTimeout(timer);
    },
  };
}

/** The last line of a log, read from its end (the embedded servers' logs grow across runs). */
function lastLine(file: string): string {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const { size } = fs.fstatSync(fd);
      const end = Buffer.alloc(Math.min(size, 4_000));
      fs.readSync(fd, end, 0, end.length, size - end.length);
      return end.toString('utf8').trim().split('\n').at(-1)!.trim();
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return '';
  }
}

/**
 * A server that did not start, as the one line an operator reads: what happened, and the last line of
 * its log, which usually says why (a port, a permission, a broken install).
 */
export function startFailure(what: string, logFile: string): SetupError {
  const last = lastLine(logFile);
  return new SetupError(last ? `${what}; its log (${logFile}) ends: ${last}` : `${what}; see ${logFile}`);
}
