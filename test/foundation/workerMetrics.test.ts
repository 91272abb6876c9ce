import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import net from 'node:net';
import { testEnvironment } from '../support/environment';
import { eventually } from '../support/eventually';
import { freePort } from '../support/freePort';
import { runEntryPoint } from '../support/entryPoint';
import { startWorkerProcess } from '../support/workerProcess';
import { WORKFLOW_TYPES } from '../../core/temporal/workflows';

/** The value of the one series named `name` whose labels include `labels`, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const line = text
    .split('\n')
    .find(
      (l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)),
    );
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe("a worker's Temporal metrics for Prometheus (WORKER_METRICS_ADDRESS)", function () {
  this.timeout(120_000);

  it('counts what the worker ran, by task queue and type, with its task latencies in seconds', async () => {
    const port = await freePort();
    // A queue of its own: only this worker runs what the test starts there.
    const taskQueue = `worker-metrics-${crypto.randomUUID()}`;
    const worker = await startWorkerProcess({
      WORKER_ROLES: 'sessions',
      TEMPORAL_TASK_QUEUE: taskQueue,
      WORKER_METRICS_ADDRESS: `127.0.0.1:${port}`,
    });
    try {
      const { client } = testEnvironment().runtime.temporal;
      const result = await client.workflow.execute(WORKFLOW_TYPES.loginLinkCleanup, {
        workflowId: `worker-metrics-${crypto.randomUUID()}`,
        taskQueue,
        args: [],
      });
      assert.equal(typeof (result as { deleted: unknown }).deleted, 'number');
      const ours = { task_queue: taskQueue };
      const text = await eventually(
        async () => (await fetch(`http://127.0.0.1:${port}/metrics`)).text(),
        (t) => sample(t, 'temporal_workflow_completed_total', ours) === 1,
        'the completed workflow in the worker metrics',
      );
      assert.equal(
        sample(text, 'temporal_workflow_completed_total', {
          ...ours,
          workflow_type: WORKFLOW_TYPES.loginLinkCleanup,
        }),
        1,
      );
      assert.equal(
        sample(text, 'temporal_activity_execution_latency_seconds_count', {
          ...ours,
          activity_type: 'deleteExpiredLoginLinks',
        }),
        1,
      );
      // What tells an operator the queue needs more workers: how long its tasks waited for one.
      const waited = sample(text, 'temporal_workflow_task_schedule_to_start_latency_seconds_sum', ours);
      assert.ok(waited !== undefined && waited >= 0 && waited < 60, `waited ${waited} s`);
      assert.ok(
        sample(text, 'temporal_worker_task_slots_available', { ...ours, worker_type: 'ActivityWorker' })! > 0,
      );
    } finally {
      worker.kill();
      await worker.exited;
    }
  });

  it('a malformed address, or one another process holds: the worker says so in one line', async () => {
    const env = { ...testEnvironment().processEnv, LOG_LEVEL: 'warn', WORKER_ROLES: 'sessions' };
    const malformed = await runEntryPoint('scripts/start-worker.ts', {
      ...env,
      WORKER_METRICS_ADDRESS: '9464',
    });
    assert.equal(malformed.code, 1);
    assert.equal(malformed.stderr.trim(), 'WORKER_METRICS_ADDRESS must be host:port, e.g. 0.0.0.0:9464');

    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as net.AddressInfo;
    try {
      const taken = await runEntryPoint('scripts/start-worker.ts', {
        ...env,
        TEMPORAL_TASK_QUEUE: `worker-metrics-${crypto.randomUUID()}`,
        WORKER_METRICS_ADDRESS: `127.0.0.1:${port}`,
      });
      assert.equal(taken.code, 1);
      assert.equal(
        taken.stderr.trim(),
        `The worker's metrics cannot listen on port ${port}: another process holds it (another instance of the ` +
          'service?). Stop that process, or set WORKER_METRICS_ADDRESS to a free port',
      );
    } finally {
      holder.close();
    }
  });
});
