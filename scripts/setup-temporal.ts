import { buildTemporalCli, findGo, findTemporalCli } from '../server/embedded/temporalCli';
import { runMain } from '../src/process';

/**
 * Makes sure a Temporal CLI is at hand before tests or a first start (building the pinned version
 * with Go when missing), so the long first build shows its progress up front. With neither a CLI nor
 * Go, the SDK downloads the dev server at start-up instead.
 */
runMain(async () => {
  if (process.env.TEMPORAL_ADDRESS) return;
  const found = findTemporalCli();
  if (found) {
    process.stdout.write(`Temporal CLI: ${found}\n`);
    return;
  }
  const go = findGo();
  if (!go) {
    process.stdout.write('No Temporal CLI and no Go: the SDK will download the dev server when it starts.\n');
    return;
  }
  const built = await buildTemporalCli(go, (line) => process.stdout.write(`${line}\n`));
  process.stdout.write(`Temporal CLI: ${built}\n`);
});
