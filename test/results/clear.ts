/** Starts `npm test` with no stage results left from an earlier run. */
import { clearStages } from './stageResults';

clearStages();
