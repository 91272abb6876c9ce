import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { ApplicationFailure } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import type { Activities, MediaMakingActivities } from '../../activities';
import type { PublishEventInput } from '../../activities/events';
import { mediaQueuesOf } from '../../core/temporal/mediaQueues';
import { recordingCompositionWorkflow } from '../../workflows/recordingComposition';
import { startTimeSkipping, withMockedWorker } from '../support/timeSkipping';

const GRID = {
  objectKey: 'recordings/s/r/grid.webm',
  contentType: 'video/webm',
  durationSeconds: 61.5,
  sizeBytes: 5_000_000,
  sha256: 'ab'.repeat(32),
};

describe('the composed grid tells the integrator its outcome (time-skipping, mocked activities)', function () {
  this.timeout(60_000);
  let env: TestWorkflowEnvironment;
  before(async function () {
    this.timeout(120_000);
    env = await startTimeSkipping();
  });
  after(async () => {
    await env?.teardown();
  });

  /** Runs the composition with `composeGrid` on its composing queue; answers its result and what it published. */
  async function compose(composeGrid: MediaMakingActivities['composeGrid']) {
    const taskQueue = `composition-${crypto.randomUUID()}`;
    const published: PublishEventInput[] = [];
    const activities: Partial<Activities> = {
      publishEvent: async (input) => {
        published.push(input);
        return { deliveries: [] };
      },
    };
    const composing = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: mediaQueuesOf(taskQueue).composing,
      activities: { composeGrid },
    });
    const result = await composing.runUntil(() =>
      withMockedWorker(env, taskQueue, activities, () =>
        env.client.workflow.execute(recordingCompositionWorkflow, {
          taskQueue,
          workflowId: `composition-${crypto.randomUUID()}`,
          args: [{ sessionId: 'session-1', recordingId: 'recording-1' }],
        }),
      ),
    );
    return { result, published };
  }

  it('a grid made: `rendition_available` with its hash, size and length, under the session’s status as recorded', async () => {
    const { result, published } = await compose(async () => GRID);
    assert.equal(result, 'available');
    assert.equal(published.length, 1);
    const [event] = published;
    assert.equal(event.event, 'rendition_available');
    assert.equal(event.sessionId, 'session-1');
    assert.equal(event.status, undefined);
    assert.deepEqual(event.data, {
      kind: 'grid',
      sha256: GRID.sha256,
      duration_seconds: 61.5,
      size_bytes: 5_000_000,
    });
    assert.match(event.eventId, /^evt_[0-9a-f]{32}$/);
  });

  it('a grid that cannot be made: `rendition_failed` with the reason, and the workflow ends without failing', async () => {
    const reason = 'the grid could not be composed: ffmpeg exited with code 1';
    const { result, published } = await compose(async () => {
      throw ApplicationFailure.nonRetryable(reason, 'RenditionNotMade');
    });
    assert.equal(result, 'failed');
    assert.deepEqual(
      published.map((p) => [p.event, p.data]),
      [['rendition_failed', { kind: 'grid', reason }]],
    );
  });
});
