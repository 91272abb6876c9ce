import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { startTemporalDevServer } from '../../server/embedded/temporalDevServer';
import { readPid } from '../../server/embedded/pidFile';
import { freePort } from '../support/freePort';
import { eventually } from '../support/eventually';

/**
 * `npm start`'s dev server keeps its store in a file under DATA_DIR, with a write-ahead log synced at its
 * checkpoints rather than at each commit: a workflow it accepted is still there after the server was
 * killed outright (and launched again by itself), as after a clean stop.
 */
describe('the persistent Temporal dev server (npm start)', function () {
  this.timeout(180_000);

  it('is launched again after a kill -9, and keeps the workflows it accepted through it and a clean restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'notarization-devserver-'));
    const port = await freePort();
    const start = async () =>
      startTemporalDevServer({ dataDir, port, uiPort: await freePort(), persistent: true, log: () => {} });
    const withClient = async <T>(use: (client: Client) => Promise<T>) => {
      const connection = await Connection.connect({ address: `127.0.0.1:${port}` });
      try {
        return await use(new Client({ connection }));
      } finally {
        await connection.close();
      }
    };
    // No worker polls this queue: the workflow stays open, as a parked session does.
    const started = (workflowId: string) =>
      withClient((client) => client.workflow.start('parkedProbe', { taskQueue: 'nobody-polls', workflowId }));
    const statusOf = (workflowId: string) =>
      withClient(async (client) => (await client.workflow.getHandle(workflowId).describe()).status.name);
    const pidFile = path.join(dataDir, 'temporal', 'temporal.pid');
    let server = await start();
    try {
      await started('before-the-kill');
      const pid = readPid(pidFile);
      assert.ok(pid, 'the dev server wrote its pid file');
      process.kill(pid, 'SIGKILL');
      // Nobody starts it again here: `npm start`'s dev server is launched again on its file by itself.
      await eventually(
        () => statusOf('before-the-kill').catch((err: Error) => `${readPid(pidFile)}: ${err.message}`),
        (status) => status === 'RUNNING' && readPid(pidFile) !== pid,
        'the workflow found on the dev server launched again',
        { timeoutMs: 60_000, intervalMs: 200 },
      );
      await started('before-the-stop');
      await server.stop();

      server = await start();
      assert.equal(await statusOf('before-the-kill'), 'RUNNING');
      assert.equal(await statusOf('before-the-stop'), 'RUNNING');
    } finally {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
