import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * When a process started, in clock ticks since boot (field 22 of /proc/<pid>/stat), so a PID the kernel
 * has given to another process since is not taken for the one that made a directory; "0" off Linux.
 */
function startTicks(pid: number): string {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '0';
  } catch {
    return '0';
  }
}

/**
 * The PID namespace this process sees PIDs in (its inode), "0" off Linux. Containers that share a /tmp
 * each number their processes from 1: a PID from another namespace says nothing about a process here.
 */
function pidNamespace(): string {
  try {
    return /\[(\d+)\]/.exec(fs.readlinkSync('/proc/self/ns/pid'))?.[1] ?? '0';
  } catch {
    return '0';
  }
}

const PREFIX = 'notarization-docx-';
/** `notarization-docx-<PID namespace>-<pid>-<its start ticks>-<random>`, of the process converting. */
const OWNED_DIR = /^notarization-docx-(\d+)-(\d+)-(\d+)-/;

/** A new directory for one conversion, named after the process that makes it. */
export function newConversionDirectory(): string {
  return fs.mkdtempSync(
    path.join(os.tmpdir(), `${PREFIX}${pidNamespace()}-${process.pid}-${startTicks(process.pid)}-`),
  );
}

/** Whether the process that made a conversion directory, in this PID namespace, still runs. */
function ownerRuns(pid: number, ticks: string): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it runs, under another user.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // Unknown either way (off Linux; /proc hiding other users' processes): taken as the same process.
  const started = startTicks(pid);
  return ticks === '0' || started === '0' || started === ticks;
}

function untouchedFor(dir: string): number {
  try {
    return Date.now() - fs.statSync(dir).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Removes the directories of conversions whose process is gone: one that dies mid-conversion cannot
 * remove its own (the document and LibreOffice's profile, some megabytes each). Run at start-up.
 * A directory of this PID namespace goes once its process is gone; any other (another container's, an
 * older release's naming) only once untouched for `abandonedAfterMs`, longer than a conversion can last:
 * its process cannot be seen from here, and removing a running conversion's files would fail it.
 */
export function removeAbandonedConversionDirectories(abandonedAfterMs: number): void {
  const tmp = os.tmpdir();
  const namespace = pidNamespace();
  for (const entry of fs.readdirSync(tmp)) {
    if (!entry.startsWith(PREFIX)) continue;
    const dir = path.join(tmp, entry);
    const owner = OWNED_DIR.exec(entry);
    const abandoned =
      owner && owner[1] === namespace
        ? !ownerRuns(Number(owner[2]), owner[3])
        : untouchedFor(dir) > abandonedAfterMs;
    if (abandoned) fs.rmSync(dir, { recursive: true, force: true });
  }
}
