import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { testEnvironment } from '../support/environment';
import { freePort } from '../support/freePort';
import { admin } from '../support/adminCli';
import { runEntryPoint } from '../support/entryPoint';

/** What an operator sees when a process cannot start: one line, what failed and what to do, exit 1. */
describe('operator-facing errors (issue 13)', function () {
  this.timeout(120_000);
  const base = () => ({
    ...testEnvironment().processEnv,
    LOG_LEVEL: 'warn',
    PORT: '0',
  });
  const oneLine = (stderr: string) => {
    const lines = stderr.trim().split('\n');
    assert.equal(lines.length, 1, `one line, no stack:\n${stderr}`);
    return lines[0];
  };

  it('an unreachable PostgreSQL: the API says where and what to fix', async () => {
    const port = await freePort();
    const result = await runEntryPoint('scripts/start-api.ts', {
      ...base(),
      DATABASE_URL: `postgres://app:secret@127.0.0.1:${port}/notarization`,
    });
    assert.equal(result.code, 1);
    assert.equal(
      oneLine(result.stderr),
      `PostgreSQL at 127.0.0.1:${port}/notarization cannot be used (connect ECONNREFUSED 127.0.0.1:${port}): start it or fix DATABASE_URL`,
    );
  });

  it('a PORT another process holds: the API names the port and the setting', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, resolve));
    const { port } = holder.address() as net.AddressInfo;
    try {
      const result = await runEntryPoint('scripts/start-api.ts', { ...base(), PORT: String(port) });
      assert.equal(result.code, 1);
      assert.equal(
        oneLine(result.stderr),
        `The API cannot listen on port ${port}: another process holds it (another instance of the service?). ` +
          'Stop that process, or set PORT to a free port',
      );
    } finally {
      holder.close();
    }
  });

  it('an unreachable Temporal, and a missing namespace, for the worker', async () => {
    const port = await freePort();
    const unreachable = await runEntryPoint('scripts/start-worker.ts', {
      ...base(),
      TEMPORAL_ADDRESS: `127.0.0.1:${port}`,
    });
    assert.equal(unreachable.code, 1);
    assert.match(
      oneLine(unreachable.stderr),
      new RegExp(
        `^Temporal at 127\\.0\\.0\\.1:${port} cannot be reached \\(.+\\): start it or fix TEMPORAL_ADDRESS$`,
      ),
    );
    const missing = await runEntryPoint('scripts/start-worker.ts', {
      ...base(),
      TEMPORAL_NAMESPACE: 'no-such-namespace',
    });
    assert.equal(missing.code, 1);
    assert.equal(
      oneLine(missing.stderr),
      `Temporal at ${testEnvironment().processEnv.TEMPORAL_ADDRESS} has no namespace "no-such-namespace": create it ` +
        '(temporal operator namespace create --namespace no-such-namespace) or set TEMPORAL_NAMESPACE',
    );
  });

  it('an embedded server that does not start: npm start ends the line with its log', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'notarization-broken-temporal-'));
    // Where the dev server keeps its SQLite file, a directory it cannot open as one.
    fs.mkdirSync(path.join(dataDir, 'temporal', 'temporal.sqlite'), { recursive: true });
    try {
      const env: NodeJS.ProcessEnv = base();
      delete env.TEMPORAL_ADDRESS;
      const result = await runEntryPoint('scripts/start.ts', {
        ...env,
        DATA_DIR: dataDir,
        TEMPORAL_DEV_PORT: String(await freePort()),
        TEMPORAL_UI_PORT: String(await freePort()),
        EMBEDDED_MEDIA_PORT: String(await freePort()),
      });
      assert.equal(result.code, 1);
      const log = path.join(dataDir, 'temporal', 'server.log');
      assert.match(
        oneLine(result.stderr),
        new RegExp(
          `^the Temporal dev server exited during start-up; its log \\(${log}\\) ends: .*unable to open database file`,
        ),
      );
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('LOG_LEVEL=debug shows the stack', async () => {
    const port = await freePort();
    const result = await runEntryPoint('scripts/start-api.ts', {
      ...base(),
      LOG_LEVEL: 'debug',
      DATABASE_URL: `postgres://app:secret@127.0.0.1:${port}/notarization`,
    });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /\n\s+at /);
  });

  it('the admin CLI: compact JSON on stdout, a database error as one JSON line on stderr', async () => {
    const ok = await admin(['create-account', '--name', 'Compact']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stdout.trim().split('\n').length, 1, 'one line of JSON');
    const port = await freePort();
    const failed = await admin(['create-account', '--name', 'X'], {
      ...testEnvironment().processEnv,
      DATABASE_URL: `postgres://app:secret@127.0.0.1:${port}/notarization`,
    });
    assert.equal(failed.code, 1);
    assert.equal(failed.stdout, '');
    assert.deepEqual(JSON.parse(oneLine(failed.stderr)), {
      error: `PostgreSQL at 127.0.0.1:${port}/notarization cannot be used (connect ECONNREFUSED 127.0.0.1:${port}): start it or fix DATABASE_URL`,
    });
  });
});
