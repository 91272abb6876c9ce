/**
 * Closes `npm test` with the counts of every stage and the plain line "tests: N passed, N failed", and
 * fails when a stage is missing or failed anything.
 */
import { readStages } from './stageResults';

const EXPECTED = ['mocha', 'fuzz', 'faults'];

const stages = readStages();
const missing = EXPECTED.filter((name) => !stages.some((s) => s.stage === name));
for (const s of stages)
  process.stdout.write(
    `  ${s.stage.padEnd(8)} ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped\n`,
  );
for (const name of missing) process.stdout.write(`  ${name.padEnd(8)} did not record a result\n`);
const passed = stages.reduce((n, s) => n + s.passed, 0);
const failed = stages.reduce((n, s) => n + s.failed, 0) + missing.length;
process.stdout.write(`tests: ${passed} passed, ${failed} failed\n`);
process.exit(failed ? 1 : 0);
