import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { testEnvironment } from '../support/environment';
import { eventually } from '../support/eventually';
import { startWorkerProcess } from '../support/workerProcess';

/** A workflow no worker has, started on a queue of its own: its first task fails, and the SDK logs it. */
async function startUnknownWorkflow(taskQueue: string) {
  const { client } = testEnvironment().runtime.temporal;
  return client.workflow.start('noSuchWorkflow', {
    workflowId: `temporal-logs-${crypto.randomUUID()}`,
    taskQueue,
    args: [],
  });
}

describe("the Temporal SDK's logs follow LOG_LEVEL", function () {
  this.timeout(120_000);

  it('LOG_LEVEL=error: a failed workflow task is logged, under component temporal', async () => {
    const taskQueue = `temporal-logs-${crypto.randomUUID()}`;
    const worker = await startWorkerProcess({
      WORKER_ROLES: 'sessions',
      TEMPORAL_TASK_QUEUE: taskQueue,
      LOG_LEVEL: 'error',
    });
    try {
      await startUnknownWorkflow(taskQueue);
      const [line] = await eventually(
        async () => worker.warnings(),
        (lines) => lines.length > 0,
        'the failed task in the log',
      );
      const entry = JSON.parse(line);
      assert.equal(entry.level, 50);
      assert.equal(entry.component, 'temporal');
      assert.match(entry.error.message, /noSuchWorkflow/);
    } finally {
      worker.kill();
      await worker.exited;
    }
  });

  it('LOG_LEVEL=fatal: the same failure leaves the log empty (the SDK never logs past the setting)', async () => {
    const taskQueue = `temporal-logs-${crypto.randomUUID()}`;
    const worker = await startWorkerProcess({
      WORKER_ROLES: 'sessions',
      TEMPORAL_TASK_QUEUE: taskQueue,
      LOG_LEVEL: 'fatal',
    });
    try {
      const handle = await startUnknownWorkflow(taskQueue);
      // The worker logs a failed task before it reports it, so once the history has it the log would too.
      await eventually(
        async () => (await handle.fetchHistory()).events ?? [],
        (events) => events.some((e) => e.workflowTaskFailedEventAttributes),
        'the failed workflow task in the history',
      );
      assert.deepEqual(
        worker.warnings().map((line) => JSON.parse(line).msg),
        [],
      );
    } finally {
      worker.kill();
      await worker.exited;
    }
  });
});
