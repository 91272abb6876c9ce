import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testEnvironment } from '../support/environment';
import { freePort } from '../support/freePort';
import { admin } from '../support/adminCli';
import { runEntryPoint } from '../support/entryPoint';
import { eventually } from '../support/eventually';

const ROOT = path.resolve(__dirname, '..', '..');

const refusal = (server: string, port: string, setting: string) =>
  `${server} cannot listen on port ${port}: another process holds it (another instance of the service?). ` +
  `Stop that process, or set ${setting} to a free port`;

/**
 * A second instance given a port the suite's own servers hold (another checkout started with the same
 * defaults): it refuses to start, naming the port and the setting, instead of running on the other
 * instance's database, Temporal or media server under its own DATA_DIR. Given PORT=0, it takes any port.
 */
describe("npm start's ports: one another instance holds, or any", function () {
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

  it('PORT=0: npm start takes a free port, and the links and the media events it derives name that port', async () => {
    const env = await secondInstance({ TEMPORAL_TASK_QUEUE: `port-zero-${process.pid}` });
    delete env.PUBLIC_BASE_URL;
    delete env.FRONT_URL;
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = once(child, 'exit');
    try {
      const port = await eventually(
        async () => /API +http:\/\/localhost:(\d+)\/api\/integrationsv2/.exec(output)?.[1],
        (found) => found !== undefined || child.exitCode !== null,
        'the API line',
        { timeoutMs: 90_000, intervalMs: 100 },
      );
      assert.ok(port && port !== '0', output);
      const served = await fetch(`http://localhost:${port}/api/integrationsv2/openapi.json`);
      assert.equal(served.status, 200);
      const document = (await served.json()) as { servers: Array<{ url: string }> };
      assert.equal(document.servers[0].url, `http://localhost:${port}`, 'links name the port the API has');
      const janusEvents = fs.readFileSync(
        path.join(dataDir, 'janus', 'conf', 'janus.eventhandler.sampleevh.jcfg'),
        'utf8',
      );
      assert.match(
        janusEvents,
        new RegExp(`backend = "http://127\\.0\\.0\\.1:${port}/internal/media/events"`),
      );
    } finally {
      child.kill('SIGINT');
      await exited;
    }
  });
});
