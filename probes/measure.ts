/** What the probes measure of the API while they run: /healthz latency from a thread of its own, and RSS. */
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Polls /healthz from a thread of its own, so the probe's own work (building and sending large bodies)
// never delays a measurement.
const HEALTH_POLLER = `
const { parentPort, workerData } = require('node:worker_threads');
const latencies = [];
let running = true;
parentPort.on('message', () => { running = false; });
(async () => {
  while (running) {
    const t = performance.now();
    await fetch(workerData.url).then((r) => r.arrayBuffer());
    latencies.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 20));
  }
  parentPort.postMessage(latencies);
})();
`;

/** /healthz every 20 ms while `work` runs: every latency. */
export async function healthWhile<T>(
  apiUrl: string,
  work: () => Promise<T>,
): Promise<{ result: T; latencies: number[] }> {
  const poller = new Worker(HEALTH_POLLER, { eval: true, workerData: { url: `${apiUrl}/healthz` } });
  const latencies = new Promise<number[]>((resolve) => poller.once('message', resolve));
  try {
    const result = await work();
    poller.postMessage('stop');
    return { result, latencies: await latencies };
  } finally {
    await poller.terminate();
  }
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/**
 * The API's RSS once the garbage of a burst is collected: the lowest of a few samples over up to 5 s,
 * so memory the process holds on to counts, and garbage V8 has not collected yet does not.
 */
export async function settledRssMiB(pid: number): Promise<number> {
  let lowest = rssMiB(pid);
  for (let i = 0; i < 20; i++) {
    await pause(250);
    lowest = Math.min(lowest, rssMiB(pid));
  }
  return lowest;
}
