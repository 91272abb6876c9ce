/**
 * Closes `npm test` with the counts of every stage and the total in the shapes test-output readers
 * know (mocha's "N passing", pytest's "== N passed in Ts =="), and fails when a stage is missing or
 * failed anything.
 */
import { readStages, secondsSinceStart } from './stageResults';

const EXPECTED = ['mocha', 'fuzz', 'faults'];

const stages = readStages();
const missing = EXPECTED.filter((name) => !stages.some((s) => s.stage === name));
const lines = stages.map(
  (s) => `  ${s.stage.padEnd(8)} ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped`,
);
for (const name of missing) lines.push(`  ${name.padEnd(8)} did not record a result`);
const passed = stages.reduce((n, s) => n + s.passed, 0);
const failed = stages.reduce((n, s) => n + s.failed, 0) + missing.length;
const seconds = secondsSinceStart() ?? 0;
lines.push(
  `tests: ${passed} passed, ${failed} failed`,
  '',
  `  ${passed} passing (${seconds}s)`,
  ...(failed ? [`  ${failed} failing`] : []),
  '',
  `==================== ${failed ? `${failed} failed, ` : ''}${passed} passed in ${seconds}s ====================`,
);
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(failed ? 1 : 0);
