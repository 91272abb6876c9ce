import fs from 'node:fs';
import path from 'node:path';

/**
 * Where the running APIs answer, kept under DATA_DIR (one file per process, removed when it stops) so
 * the admin CLI, a process of its own with its own environment, prints links to the running service.
 */
const dirOf = (dataDir: string) => path.join(dataDir, 'api');

export function recordRunningApi(dataDir: string, frontUrl: string): () => void {
  const file = path.join(dirOf(dataDir), `${process.pid}.json`);
  fs.mkdirSync(dirOf(dataDir), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ front_url: frontUrl, pid: process.pid }));
  return () => fs.rmSync(file, { force: true });
}

/** The front URL of the API started last of those running with this DATA_DIR, if one is. */
export function runningApiFrontUrl(dataDir: string): string | undefined {
  const records = listed(dirOf(dataDir))
    .map((file) => ({ file, record: read(file) }))
    .filter(({ record }) => record && alive(record.pid))
    .sort((a, b) => fs.statSync(b.file).mtimeMs - fs.statSync(a.file).mtimeMs);
  return records[0]?.record?.front_url;
}

function listed(dir: string): string[] {
  try {
    return fs.readdirSync(dir).map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}

function read(file: string): { front_url: string; pid: number } | undefined {
  try {
    const record = JSON.parse(fs.readFileSync(file, 'utf8'));
    return typeof record.front_url === 'string' && Number.isInteger(record.pid) ? record : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
