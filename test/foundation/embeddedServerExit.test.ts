import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventually } from '../support/eventually';
import { processRuns } from '../support/workerProcess';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * A process that spawns more embedded servers than Node's listener limit (the bench runs three stacks of
 * three) and exits without stopping them: each is still signalled to stop, with no listener-leak warning.
 */
describe('embedded servers left running when their process exits', function () {
  this.timeout(60_000);

  it('are all signalled to stop, through one exit hook', async () => {
    const logs = fs.mkdtempSync(path.join(os.tmpdir(), 'notarization-exit-hook-'));
    const script = `
      const { spawnServer } = require('./server/embedded/childProcess');
      const pids = Array.from({ length: 12 }, (_, i) =>
        spawnServer('sleep', ['300'], ${JSON.stringify(logs)} + '/' + i + '.log', { exitSignal: 'SIGTERM' }).child.pid);
      process.stdout.write(JSON.stringify(pids));
      setImmediate(() => process.exit(0));`;
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'close')) as [number | null];
    let pids: number[] = [];
    try {
      assert.equal(code, 0, stderr);
      pids = JSON.parse(stdout) as number[];
      assert.equal(pids.length, 12);
      await eventually(
        async () => pids.filter(processRuns),
        (left) => left.length === 0,
        'every server stopped',
        { timeoutMs: 10_000, intervalMs: 50 },
      );
      assert.doesNotMatch(stderr, /MaxListenersExceededWarning/);
    } finally {
      pids.filter(processRuns).forEach((pid) => process.kill(pid, 'SIGKILL'));
      fs.rmSync(logs, { recursive: true, force: true });
    }
  });
});
