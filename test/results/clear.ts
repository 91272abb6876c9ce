/** Starts `npm test` with no stage results left from an earlier run, and notes when it started. */
import { clearStages, recordStart } from './stageResults';

clearStages();
recordStart();
