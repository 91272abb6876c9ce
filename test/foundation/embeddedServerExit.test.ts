import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { testEnvironment } from '../support/environment';
import { eventually } from '../support/eventually';
import { freePort } from '../support/freePort';
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

/** Every pid file under `dir`: the embedded servers a process has started there. */
function pidFilesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.pid'))
    .map((file) => path.join(dir, file));
}

/**
 * A signal while `npm start` is still starting (a first run builds the Temporal CLI for minutes): it dies
 * of that signal as before, and the servers it started so far stop with it instead of outliving it.
 */
describe('npm start interrupted while it starts', function () {
  this.timeout(120_000);

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`stops the servers it started, on ${signal}`, async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'notarization-interrupted-'));
      // A database that accepts the connection and never answers holds the start after the servers are up.
      let connected = false;
      const silent = net.createServer((socket) => {
        connected = true;
        socket.on('error', () => undefined);
      });
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const { port } = silent.address() as net.AddressInfo;
      const { TEMPORAL_ADDRESS: _external, ...env } = testEnvironment().processEnv;
      const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
        cwd: ROOT,
        env: {
          ...env,
          DATA_DIR: dataDir,
          DATABASE_URL: `postgres://nobody:nothing@127.0.0.1:${port}/none`,
          PORT: '0',
          TEMPORAL_DEV_PORT: String(await freePort()),
          TEMPORAL_UI_PORT: String(await freePort()),
          EMBEDDED_MEDIA_PORT: String(await freePort()),
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      let pids: number[] = [];
      try {
        pids = await eventually(
          async () =>
            connected ? pidFilesUnder(dataDir).map((file) => Number(fs.readFileSync(file, 'utf8'))) : [],
          (found) => found.length > 0 && found.every(processRuns),
          'the embedded servers up and the start waiting on the database',
          { timeoutMs: 60_000, intervalMs: 50 },
        );
        child.kill(signal);
        const [code, diedOf] = await exited;
        assert.deepEqual({ code, diedOf }, { code: null, diedOf: signal }, stderr);
        await eventually(
          async () => pids.filter(processRuns),
          (left) => left.length === 0,
          'every server it started stopped',
          { timeoutMs: 15_000, intervalMs: 50 },
        );
      } finally {
        child.kill('SIGKILL');
        pids.filter(processRuns).forEach((pid) => process.kill(pid, 'SIGKILL'));
        silent.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
});
