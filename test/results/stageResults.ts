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
