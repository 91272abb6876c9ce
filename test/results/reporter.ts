/** Mocha's spec reporter, which also records the run's counts for `npm run test:summary`. */
import Mocha from 'mocha';
import { recordStage } from './stageResults';

class SpecRecordingCounts extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const stats = runner.stats ?? { passes: 0, failures: 0, pending: 0 };
      recordStage({ stage: 'mocha', passed: stats.passes, failed: stats.failures, skipped: stats.pending });
    });
  }
}

export = SpecRecordingCounts;
