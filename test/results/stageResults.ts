/**
 * Each stage of `npm test` (mocha, the OpenAPI fuzz, the fault test) records how many of its checks
 * passed and failed here, and `npm run test:summary` closes the run with one line for all of them.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface StageResult {
  stage: string;
  passed: number;
  failed: number;
  skipped: number;
}

export const RESULTS_DIR = path.resolve(__dirname, '..', '..', '.data', 'test-results');

export function recordStage(result: StageResult): void {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, `${result.stage}.json`), `${JSON.stringify(result)}\n`);
}

export function readStages(): StageResult[] {
  if (!fs.existsSync(RESULTS_DIR)) return [];
  return fs
    .readdirSync(RESULTS_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(fs.readFileSync(path.join(RESULTS_DIR, f), 'utf8')) as StageResult);
}

export function clearStages(): void {
  fs.rmSync(RESULTS_DIR, { recursive: true, force: true });
}

const STARTED_AT = path.join(RESULTS_DIR, 'started-at');

export function recordStart(): void {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(STARTED_AT, String(Date.now()));
}

/** Seconds since `recordStart`, or undefined when the run did not start through `npm test`. */
export function secondsSinceStart(): number | undefined {
  if (!fs.existsSync(STARTED_AT)) return undefined;
  return Math.round((Date.now() - Number(fs.readFileSync(STARTED_AT, 'utf8'))) / 1000);
}
