import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { postgresLayout, startEmbeddedPostgres } from '../../server/embedded/embeddedPostgres';
import { readPid } from '../../server/embedded/pidFile';
import { eventually } from '../support/eventually';
import { freePort } from '../support/freePort';

/** What `npm start` does when its PostgreSQL dies outright (the kernel's OOM killer picks the postmaster). */
describe('the embedded PostgreSQL killed outright', function () {
  this.timeout(120_000);

  it('is launched again by itself, with every committed row', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'notarization-pg-crash-'));
    const layout = postgresLayout(dataDir);
    const logs: string[] = [];
    const server = await startEmbeddedPostgres({
      dataDir,
      port: await freePort(),
      database: 'crash',
      log: (line) => logs.push(line),
    });
    const query = async (sql: string) => {
      const client = new pg.Client({ connectionString: server.databaseUrl });
      await client.connect();
      try {
        return (await client.query(sql)).rows;
      } finally {
        await client.end();
      }
    };
    try {
      await query('CREATE TABLE deeds (id int PRIMARY KEY); INSERT INTO deeds VALUES (1), (2)');
      const postmaster = readPid(path.join(layout.databaseDir, 'postmaster.pid'))!;
      process.kill(postmaster, 'SIGKILL');
      // Nobody starts it again here.
      const rows = await eventually(
        () => query('SELECT id FROM deeds ORDER BY id').catch((err: Error) => err.message),
        (answer) => Array.isArray(answer),
        'the rows from the PostgreSQL launched again',
        { timeoutMs: 60_000, intervalMs: 200 },
      );
      assert.deepEqual(rows, [{ id: 1 }, { id: 2 }]);
      assert.notEqual(readPid(path.join(layout.databaseDir, 'postmaster.pid')), postmaster);
      assert.ok(
        logs.includes('The embedded PostgreSQL exited (SIGKILL): starting it again'),
        logs.join('\n'),
      );
    } finally {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (layout.databaseDir !== path.join(dataDir, 'postgres'))
        fs.rmSync(path.dirname(layout.databaseDir), { recursive: true, force: true });
    }
  });
});
