import { startTestEnvironment, stopTestEnvironment } from './support/environment';
import { pendingWaits } from './support/eventually';

// Root hooks: one PostgreSQL and one Temporal server for the whole run; each test isolates itself
// with its own account.
before(async function () {
  // The first run on a machine may build the Temporal CLI with Go (minutes).
  this.timeout(15 * 60_000);
  await startTestEnvironment();
});

after(async function () {
  this.timeout(60_000);
  await stopTestEnvironment();
});

// A test that runs out of mocha's time says what it was still waiting for, or that it waited on nothing.
let testStartedAt = 0;
beforeEach(() => {
  testStartedAt = Date.now();
});
afterEach(function () {
  const test = this.currentTest;
  if (test?.state !== 'failed' || !test.err || !/^Timeout of \d+ms exceeded/.test(test.err.message)) return;
  const waits = pendingWaits(testStartedAt);
  const said = waits.length
    ? `\n  still waiting for: ${waits.join('\n  and for: ')}`
    : '\n  no eventually() was waiting: a step without a deadline (a request, a page closing) held it';
  // The reporter prints the stack's head, not the message: both say it.
  test.err.message += said;
  test.err.stack = test.err.stack?.replace(/^.*$/m, (head) => head + said);
});
