import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { ComposeStack } from './stack';

const run = promisify(execFile);

const METRICS_PORT = 9464;

/** Reads the worker's metrics from inside its container, as Prometheus on the services' network would. */
const SCRAPE = `fetch('http://127.0.0.1:${METRICS_PORT}/metrics').then((r) => r.text()).then((t) => process.stdout.write(t))`;

/** The sum of a metric's series that carry `label` (e.g. a task queue), from Prometheus text. */
function sumOf(text: string, metric: string, label: RegExp): number {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${metric}{`) && label.test(line))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

/**
 * What the workers' Temporal metrics reported after the rounds: the session workers' completed workflows
 * and the media workers' activities, each on its own task queue; and that no container publishes the port.
 */
export async function workerMetrics(stack: ComposeStack) {
  const workers = (await stack.containers()).filter(
    (c) => c.State === 'running' && (c.Service === 'worker' || c.Service === 'media-worker'),
  );
  let sessionWorkflows = 0;
  let mediaActivities = 0;
  for (const { Name, Service } of workers) {
    const { stdout } = await run('docker', ['exec', Name, 'node', '-e', SCRAPE], { timeout: 30_000 });
    if (Service === 'worker')
      sessionWorkflows += sumOf(stdout, 'temporal_workflow_completed_total', /task_queue="[^"]*sessions"/);
    else mediaActivities += sumOf(stdout, 'temporal_activity_execution_latency_seconds_count', /-media"/);
  }
  const published = [
    ...(await stack.published('worker', METRICS_PORT)),
    ...(await stack.published('media-worker', METRICS_PORT)),
  ];
  if (!sessionWorkflows || !mediaActivities || published.length)
    throw new Error(
      `session workflows ${sessionWorkflows}, media activities ${mediaActivities}, published on ${published.join(', ') || 'none'}`,
    );
  return { workers: workers.length, sessionWorkflows, mediaActivities };
}
