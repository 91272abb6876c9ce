import { startTestEnvironment, stopTestEnvironment } from './support/environment';

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
