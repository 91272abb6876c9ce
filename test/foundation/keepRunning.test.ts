import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServer, type ManagedChild } from '../../server/embedded/childProcess';
import { keepRunning } from '../../server/embedded/keepRunning';
import { eventually } from '../support/eventually';
import { processRuns } from '../support/workerProcess';

/** The supervision `npm start` gives its embedded media server, on a stand-in server (`sh`). */
describe('an embedded server kept running', function () {
  this.timeout(60_000);
  let dir: string;
  let launched: ManagedChild[];
  let lines: string[];
  const supervise = (script: string) =>
    keepRunning({
      name: 'The stand-in',
      launch: async () => {
        const server = spawnServer('sh', ['-c', script], path.join(dir, 'server.log'), {
          exitSignal: 'SIGTERM',
        });
        launched.push(server);
        return server;
      },
      halt: (server) => server.stop('SIGTERM', 5_000),
      log: (line, level) => lines.push(`${level ?? 'info'}: ${line}`),
    });
  const running = () => launched.filter((server) => !server.exited());

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'notarization-kept-running-'));
    [launched, lines] = [[], []];
  });
  afterEach(() => {
    running().forEach((server) => server.child.kill('SIGKILL'));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is launched again after a crash, with a warning, and stays stopped once stopped', async () => {
    const kept = await supervise('sleep 300');
    const first = launched[0].child.pid!;
    process.kill(first, 'SIGKILL');
    await eventually(
      async () => running(),
      (alive) => alive.length === 1 && alive[0].child.pid !== first,
      'a second launch',
      { timeoutMs: 10_000, intervalMs: 50 },
    );
    assert.deepEqual(lines, ['warn: The stand-in exited (SIGKILL): starting it again']);
    const second = launched[1].child.pid!;
    await kept.stop();
    assert.equal(processRuns(second), false);
    assert.equal(launched.length, 2, 'a stopped server is not launched again');
  });

  it('stopped while it waits to launch again, it is not launched', async () => {
    const kept = await supervise('sleep 300');
    process.kill(launched[0].child.pid!, 'SIGKILL');
    await eventually(
      async () => lines.length,
      (n) => n === 1,
      'the crash noticed',
      { timeoutMs: 10_000, intervalMs: 20 },
    );
    // stop() returns once the pending launch is called off.
    await kept.stop();
    assert.equal(launched.length, 1);
  });

  it('is left stopped after five quick exits in a row, and says so as an error', async () => {
    await supervise('exit 3');
    const gaveUp = await eventually(
      async () => lines,
      (logged) => logged.some((line) => line.includes('left stopped')),
      'the supervision to give up',
      { timeoutMs: 20_000, intervalMs: 50 },
    );
    assert.equal(launched.length, 5);
    assert.equal(
      gaveUp.at(-1),
      'error: The stand-in exited (code 3), 5 times within seconds of starting: left stopped',
    );
  });
});
