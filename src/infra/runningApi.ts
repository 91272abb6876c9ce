import fs from 'node:fs';
import path from 'node:path';

/**
 * Where a running API answers, kept under DATA_DIR while it runs, so the admin CLI (a process of its own,
 * with its own environment) prints links that lead to the service that is actually running.
 */
const fileOf = (dataDir: string) => path.join(dataDir, 'api.json');

export function recordRunningApi(dataDir: string, frontUrl: string): () => void {
  const file = fileOf(dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ front_url: frontUrl, pid: process.pid }));
  return () => {
    if (runningRecord(file)?.pid === process.pid) fs.rmSync(file, { force: true });
  };
}

/** The front URL of the API running with this DATA_DIR, if one is. */
export function runningApiFrontUrl(dataDir: string): string | undefined {
  const record = runningRecord(fileOf(dataDir));
  if (!record) return undefined;
  try {
    process.kill(record.pid, 0);
    return record.front_url;
  } catch {
    return undefined;
  }
}

function runningRecord(file: string): { front_url: string; pid: number } | undefined {
  try {
    const record = JSON.parse(fs.readFileSync(file, 'utf8'));
    return typeof record.front_url === 'string' && Number.isInteger(record.pid) ? record : undefined;
  } catch {
    return undefined;
  }
}
