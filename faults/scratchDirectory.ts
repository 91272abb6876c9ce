import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A new directory for one run's servers, data and logs, under the temp directory. */
export function scratchDirectory(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `notarization-${name}-`));
  // As root, PostgreSQL runs as the `postgres` user, which must be able to enter the directory.
  fs.chmodSync(dir, 0o755);
  return dir;
}

/**
 * Ends a passing run: its directory goes (one per run would gather, 70–90 MB each) unless asked to keep it.
 * A failing run never gets here, so its logs stay.
 */
export function removeAfterPass(dir: string, keep: boolean, log: (line: string) => void): void {
  if (keep) {
    log(`PASS; data and logs kept in ${dir}`);
    return;
  }
  fs.rmSync(dir, { recursive: true, force: true });
  log('PASS');
}
