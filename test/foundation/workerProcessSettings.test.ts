import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { WORKER_NODE_ARGS } from '../../src/process';

const ROOT = path.join(__dirname, '..', '..');
const MAX_OLD_SPACE_MB = Number(/--max-old-space-size=(\d+)/.exec(WORKER_NODE_ARGS.join(' '))![1]);

describe("The worker's Node options: one set wherever production starts it", () => {
  it('docker-compose and npm run start:worker start the worker with them', () => {
    const compose = fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
    const quoted = ['node', ...WORKER_NODE_ARGS, 'dist/scripts/start-worker.js'].map((a) => `'${a}'`);
    assert.ok(compose.includes(`command: [${quoted.join(', ')}]`), 'the compose worker command');
    const scripts = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts;
    assert.match(
      scripts['start:worker'],
      new RegExp(`node ${WORKER_NODE_ARGS.join(' ')} dist/scripts/start-worker\\.js$`),
    );
  });

  it('bound the heap of the main thread and of the worker threads the workflows run in', () => {
    // The workflow threads are Temporal's worker_threads, started without resource limits of their own.
    const limits = execFileSync(
      process.execPath,
      [
        ...WORKER_NODE_ARGS,
        '-e',
        `const { Worker } = require('node:worker_threads');
         const v8 = require('node:v8');
         const mb = () => v8.getHeapStatistics().heap_size_limit / 2 ** 20;
         new Worker("require('node:worker_threads').parentPort.postMessage(require('node:v8').getHeapStatistics().heap_size_limit / 2 ** 20)", { eval: true })
           .once('message', (thread) => console.log(JSON.stringify({ main: mb(), thread })));`,
      ],
      { encoding: 'utf8' },
    );
    const { main, thread } = JSON.parse(limits) as { main: number; thread: number };
    const unbounded = JSON.parse(
      execFileSync(
        process.execPath,
        ['-e', `console.log(require('node:v8').getHeapStatistics().heap_size_limit / 2 ** 20)`],
        {
          encoding: 'utf8',
        },
      ),
    ) as number;
    for (const [where, limit] of Object.entries({ main, thread })) {
      // The limit covers the old space; V8 adds the young generation's room to it.
      assert.ok(limit >= MAX_OLD_SPACE_MB && limit <= MAX_OLD_SPACE_MB + 64, `${where}: ${limit} MB`);
    }
    assert.ok(
      unbounded > MAX_OLD_SPACE_MB + 64,
      `without the options the limit is V8's own: ${unbounded} MB`,
    );
  });
});
