import { SetupError } from '../../src/setupErrors';
import fs from 'node:fs';

export function writePidFile(file: string, pid: number | undefined): void {
  if (pid) fs.writeFileSync(file, String(pid));
}

export function readPid(file: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').split('\n')[0].trim());
    return pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function commandOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

function parentOf(pid: number): number | undefined {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces, so split after the last ')'.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

export class AlreadyRunningError extends SetupError {}

/**
 * A server we started detached outlives a `npm start` that was killed outright, and keeps its port and
 * data directory. Such an orphan (re-parented to init) is stopped; one whose starter is still alive
 * belongs to another running instance and is left alone.
 */
export async function stopOrphan(
  pid: number | undefined,
  expectedCommand: string,
  what: string,
): Promise<void> {
  if (!pid || !commandOf(pid).includes(expectedCommand)) return;
  if (parentOf(pid) !== 1) {
    throw new AlreadyRunningError(
      `${what} (pid ${pid}) is already running for this DATA_DIR under another process: stop that ` +
        'instance (Ctrl-C in its terminal), or set another DATA_DIR',
    );
  }
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 100 && commandOf(pid); i++) await new Promise((r) => setTimeout(r, 100));
  if (commandOf(pid)) process.kill(pid, 'SIGKILL');
}
