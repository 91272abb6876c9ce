import { activityInfo, ApplicationFailure } from '@temporalio/activity';
import type { ActivityDependencies } from './dependencies';
import { whileHeartbeating } from './heartbeat';
import { markFailed } from '../src/media/recordings';
import { makeEvidence, type MadeRecording } from '../src/media/evidenceMaker';
import { composeGrid } from '../src/media/gridComposer';
import { markRenditionFailed, type MadeRendition } from '../src/media/renditions';
import { MediaToolError } from '../src/media/mediaTools';

/** Attempts that fail for a reason other than an outage, before the file is given up as not made. */
const MAKE_ATTEMPTS = 3;

/** Only the media tools' failures are the recording's own; storage and database outages pass and retry. */
async function attempted<T>(make: () => Promise<T>, giveUp: (reason: string) => Promise<never>): Promise<T> {
  try {
    return await whileHeartbeating(make);
  } catch (err) {
    if (!(err instanceof MediaToolError) || activityInfo().attempt < MAKE_ATTEMPTS) throw err;
    return giveUp(err.message.split('\n')[0]);
  }
}

/**
 * Making the act's files, on the media task queues' own workers (worker/createWorker.ts): the evidence
 * first and fast, the composed grid after, in the background.
 */
export function mediaMakingActivities({ sequelize, config, objectStore: store }: ActivityDependencies) {
  return {
    /**
     * The recording's evidence, made and stored (src/media/evidenceMaker.ts). A media tool that fails on
     * the files MAKE_ATTEMPTS times: the recording is `failed` with the reason, its raw files kept where the
     * media server wrote them, and `RecordingNotMade` says so.
     */
    async makeEvidence({ sessionId }: { sessionId: string }): Promise<MadeRecording> {
      const deps = { sequelize, store, retention: config.media.recordingRetention };
      return attempted(
        () => makeEvidence(deps, sessionId),
        async (said) => {
          const reason = `the recording could not be made: ${said}`;
          await markFailed(sequelize, sessionId, reason);
          throw ApplicationFailure.nonRetryable(reason, 'RecordingNotMade');
        },
      );
    },

    /** The composed grid (src/media/gridComposer.ts); one that cannot be made is `failed` with the reason. */
    async composeGrid({
      sessionId,
      recordingId,
    }: {
      sessionId: string;
      recordingId: string;
    }): Promise<MadeRendition> {
      return attempted(
        () => composeGrid({ sequelize, store }, sessionId),
        async (said) => {
          const reason = `the grid could not be composed: ${said}`;
          await markRenditionFailed(sequelize, recordingId, 'grid', reason);
          throw ApplicationFailure.nonRetryable(reason, 'RenditionNotMade');
        },
      );
    },
  };
}
