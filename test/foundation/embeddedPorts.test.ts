import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testEnvironment } from '../support/environment';
import { freePort } from '../support/freePort';
import { admin } from '../support/adminCli';
import { runEntryPoint } from '../support/entryPoint';

const refusal = (server: string, port: string, setting: string) =>
  `${server} cannot listen on port ${port}: another process holds it (another instance of the service?). ` +
  `Stop that process, or set ${setting} to a free port`;

/**
 * A second instance given a port the suite's own servers hold (another checkout started with the same
 * defaults): it refuses to start, naming the port and the setting, instead of running on the other
 * instance's database, Temporal or media server under its own DATA_DIR.
 */
describe('embedded servers on a port another instance holds', function () {
  this.timeout(120_000);
  let dataDir: string;
  let running: NodeJS.ProcessEnv;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'notarization-second-instance-'));
    fs.chmodSync(dataDir, 0o755);
    running = testEnvironment().processEnv;
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  /** The suite's environment on another DATA_DIR; without `drop`'s URL, that server is embedded too. */
  const secondInstance = async (overrides: NodeJS.ProcessEnv, drop?: 'DATABASE_URL' | 'TEMPORAL_ADDRESS') => {
    const env: NodeJS.ProcessEnv = {
      ...running,
      DATA_DIR: dataDir,
      PORT: '0',
      EMBEDDED_MEDIA_PORT: String(await freePort()),
      ...overrides,
    };
    if (drop) delete env[drop];
    return env;
  };

  it("PostgreSQL: npm start and the admin CLI refuse the other instance's port", async () => {
    const port = running.EMBEDDED_POSTGRES_PORT!;
    const env = await secondInstance({ EMBEDDED_POSTGRES_PORT: port }, 'DATABASE_URL');
    const expected = refusal('The embedded PostgreSQL', port, 'EMBEDDED_POSTGRES_PORT');
    const started = await runEntryPoint('scripts/start.ts', env);
    assert.deepEqual({ code: started.code, stderr: started.stderr.trim() }, { code: 1, stderr: expected });
    const tool = await admin(['create-account', '--name', 'Elsewhere'], env);
    assert.deepEqual({ code: tool.code, json: tool.json }, { code: 1, json: { error: expected } });
  });

  it("Temporal: npm start refuses the other instance's port", async () => {
    const port = running.TEMPORAL_DEV_PORT!;
    const env = await secondInstance(
      { TEMPORAL_DEV_PORT: port, TEMPORAL_UI_PORT: String(await freePort()) },
      'TEMPORAL_ADDRESS',
    );
    const started = await runEntryPoint('scripts/start.ts', env);
    assert.deepEqual(
      { code: started.code, stderr: started.stderr.trim() },
      { code: 1, stderr: refusal('The Temporal dev server', port, 'TEMPORAL_DEV_PORT') },
    );
  });

  it("Janus: npm start refuses the other instance's port", async () => {
    assert.ok(
      testEnvironment().services.media,
      'the suite runs its own Janus (npm run setup:test installs it)',
    );
    const port = running.EMBEDDED_MEDIA_PORT!;
    const started = await runEntryPoint(
      'scripts/start.ts',
      await secondInstance({ EMBEDDED_MEDIA_PORT: port }),
    );
    assert.deepEqual(
      { code: started.code, stderr: started.stderr.trim() },
      { code: 1, stderr: refusal('The embedded Janus', port, 'EMBEDDED_MEDIA_PORT') },
    );
  });
});
