import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestAccount } from '../support/accounts';
import { b64, docxBytes } from '../support/documents';
import { startSecondApp } from '../support/secondApp';
import { sessionBody } from '../support/sessions';
import { testEnvironment } from '../support/environment';
import { eventually } from '../support/eventually';
import { freePort } from '../support/freePort';
import { processRuns } from '../support/workerProcess';

const ROOT = path.join(__dirname, '..', '..');

/** The API as the process of its own a deployment runs, on a free port, once it is ready. */
async function apiProcess(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start-api.ts'], {
    cwd: ROOT,
    env: { ...env, PORT: String(port) },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await eventually(
      () =>
        fetch(`${url}/readyz`).then(
          (r) => r.status,
          () => 0,
        ),
      (status) => status === 200,
      'the API process to be ready',
      { timeoutMs: 60_000, intervalMs: 200 },
    );
  } catch (err) {
    await stopped(child, 'SIGKILL');
    throw err;
  }
  return { child, url };
}

function stopped(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  return exited;
}

/** A DOCX create on an API whose LibreOffice is `soffice` (and DOCUMENT_TIMEOUT `timeoutMs`). */
async function docxCreate(soffice: string, timeoutMs?: number) {
  const { documentWork } = testEnvironment().config;
  const app = await startSecondApp({
    libreofficePath: soffice,
    documentWork: { ...documentWork, timeoutMs: timeoutMs ?? documentWork.timeoutMs },
  });
  try {
    const { api_key } = await createTestAccount();
    const res = await fetch(`${app.url}/api/integrationsv2/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify(
        await sessionBody({ session_documents: [{ name: 'poa.docx', base64Doc: b64(docxBytes()) }] }),
      ),
    });
    return {
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      body: (await res.json()) as { response: string; response_message: string },
    };
  } finally {
    await app.close();
  }
}

/** The same with a shell script standing in for soffice ($DIR: its directory), and how often it ran. */
async function createWithLibreOffice(script: string, timeoutMs?: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soffice-stand-in-'));
  try {
    const soffice = path.join(dir, 'soffice');
    fs.writeFileSync(soffice, `#!/bin/sh\nprintf x >> $DIR/runs\n${script}\n`.replaceAll('$DIR', dir), {
      mode: 0o755,
    });
    const res = await docxCreate(soffice, timeoutMs);
    const pidFile = path.join(dir, 'pid');
    return {
      ...res,
      runs: fs.existsSync(path.join(dir, 'runs'))
        ? fs.readFileSync(path.join(dir, 'runs'), 'utf8').length
        : 0,
      pid: fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8')) : undefined,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('DOCX conversion when LibreOffice fails', function () {
  this.timeout(120_000);
  const realSoffice = execFileSync('sh', ['-c', 'command -v soffice'], { encoding: 'utf8' }).trim();

  it('a run that fails at once is run again, on a fresh profile: the create succeeds', async () => {
    const res = await createWithLibreOffice(
      'if [ "$(cat $DIR/runs)" = x ]; then echo "simulated crash" >&2; exit 3; fi\n' +
        `exec ${realSoffice} "$@"`,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.runs, 2);
  });

  it('one that fails again, where LibreOffice converts nothing, is a 503 with Retry-After naming its exit and last words, not its command line', async () => {
    const res = await createWithLibreOffice('echo "simulated crash" >&2\nexit 3');
    assert.equal(res.status, 503);
    assert.equal(res.retryAfter, '5');
    assert.deepEqual(res.body, {
      response: 'Fail',
      response_message:
        'Document conversion is unavailable: LibreOffice could not run: exit 3: simulated crash',
    });
    assert.equal(res.runs, 3, 'two runs of the document, one of the known-good check');
  });

  it('one that fails again while LibreOffice converts other documents: a 403 saying the document is at fault, no retry asked', async () => {
    const res = await createWithLibreOffice(
      'case "$*" in *document.docx*) echo "simulated crash" >&2; exit 3;; esac\n' +
        `exec ${realSoffice} "$@"`,
    );
    assert.equal(res.status, 403, JSON.stringify(res.body));
    assert.equal(res.retryAfter, null);
    assert.equal(res.body.response, 'Fail');
    assert.equal(
      res.body.response_message,
      'session_documents[0].base64Doc could not be converted to PDF: the .docx content is damaged or unsupported',
    );
    assert.equal(res.runs, 3);
  });

  it('a LibreOffice that is not there is a 503 with Retry-After saying so', async () => {
    const res = await docxCreate('/nonexistent/soffice');
    assert.equal(res.status, 503);
    assert.equal(res.retryAfter, '5');
    assert.equal(
      res.body.response_message,
      'Document conversion is unavailable: DOCX conversion needs LibreOffice (/nonexistent/soffice not found)',
    );
  });

  it('a host without coreutils’ timeout: a 503 saying so, not that LibreOffice is missing', async () => {
    // PATH with nothing on it, then with only `unshare` and `true`: LibreOffice would run in a network
    // namespace, where `unshare` (not `timeout`) reports the missing program as exit 127.
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'path-without-timeout-'));
    const processes: ChildProcess[] = [];
    try {
      const { api_key } = await createTestAccount();
      const body = JSON.stringify(
        await sessionBody({ session_documents: [{ name: 'poa.docx', base64Doc: b64(docxBytes()) }] }),
      );
      for (const tools of [[], ['unshare', 'true']]) {
        for (const tool of tools)
          fs.symlinkSync(
            execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim(),
            path.join(bin, tool),
          );
        const api = await apiProcess({
          ...testEnvironment().processEnv,
          LOG_LEVEL: 'silent',
          LIBREOFFICE_PATH: realSoffice,
          PATH: bin,
        });
        processes.push(api.child);
        const res = await fetch(`${api.url}/api/integrationsv2/sessions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' },
          body,
        });
        assert.equal(res.status, 503, tools.join(' '));
        assert.equal(res.headers.get('retry-after'), '5');
        assert.equal(
          ((await res.json()) as { response_message: string }).response_message,
          "Document conversion is unavailable: DOCX conversion needs coreutils' timeout (not found)",
          tools.join(' '),
        );
      }
    } finally {
      await Promise.all(processes.map((child) => stopped(child, 'SIGTERM')));
      fs.rmSync(bin, { recursive: true, force: true });
    }
  });

  it('a LibreOffice that never ends is stopped within DOCUMENT_TIMEOUT: a 503, and no run of it left behind', async () => {
    // Past DOCUMENT_TIMEOUT the pool ends the document's thread; a run started from it would go on alone.
    // The time covers the thread's start too, which from source on a loaded machine has taken over 10 s:
    // this test's timeout leaves the stand-in room to start.
    const timeoutMs = 25_000;
    const started = Date.now();
    const res = await createWithLibreOffice('echo $$ > $DIR/pid\nexec sleep 600', timeoutMs);
    assert.equal(res.status, 503, JSON.stringify(res.body));
    assert.equal(res.retryAfter, '5');
    assert.equal(
      res.body.response_message,
      'Document conversion is unavailable: LibreOffice did not finish in time (120 s at most, within DOCUMENT_TIMEOUT)',
    );
    assert.ok(Date.now() - started < timeoutMs + 15_000, `answered after ${Date.now() - started} ms`);
    assert.equal(res.runs, 1, 'a run that ran out of time is not run again');
    assert.ok(res.pid, 'the stand-in LibreOffice ran');
    await eventually(
      () => processRuns(res.pid!),
      (running) => !running,
      'the stand-in LibreOffice to be stopped',
      {
        timeoutMs: 5_000,
      },
    );
  });

  it('an API process killed during a conversion: its LibreOffice stops all the same, and the next start removes what it left', async function () {
    this.timeout(240_000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soffice-stand-in-'));
    const soffice = path.join(dir, 'soffice');
    fs.writeFileSync(
      soffice,
      `#!/bin/sh\nprintf '%s\\n' "$@" > ${dir}/args\necho $$ > ${dir}/pid\nexec sleep 600\n`,
      { mode: 0o755 },
    );
    const env = {
      ...testEnvironment().processEnv,
      LOG_LEVEL: 'silent',
      LIBREOFFICE_PATH: soffice,
      // Long enough that the stand-in starts even when the new process's first thread is slow (over 15 s
      // seen from source under load); `timeout` then stops it within this, with no API process left.
      DOCUMENT_TIMEOUT: '45s',
    };
    const processes: ChildProcess[] = [];
    try {
      const first = await apiProcess(env);
      processes.push(first.child);
      const { api_key } = await createTestAccount();
      const answered = fetch(`${first.url}/api/integrationsv2/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' },
        body: JSON.stringify(
          await sessionBody({ session_documents: [{ name: 'poa.docx', base64Doc: b64(docxBytes()) }] }),
        ),
      }).catch(() => undefined);
      const pid = await eventually(
        () =>
          fs.existsSync(path.join(dir, 'pid')) ? Number(fs.readFileSync(path.join(dir, 'pid'), 'utf8')) : 0,
        Boolean,
        'the stand-in LibreOffice to run',
        { timeoutMs: 45_000 },
      );
      const args = fs.readFileSync(path.join(dir, 'args'), 'utf8').split('\n');
      const conversionDir = args[args.indexOf('--outdir') + 1];

      await stopped(first.child, 'SIGKILL');
      assert.equal(await answered, undefined, 'the create was never answered');
      assert.ok(fs.existsSync(conversionDir), `the killed process left ${conversionDir}`);
      assert.ok(processRuns(pid), 'the stand-in outlived the API process');
      await eventually(
        () => processRuns(pid),
        (running) => !running,
        'the stand-in LibreOffice to be stopped with no API process left to stop it',
        { timeoutMs: 55_000 },
      );

      processes.push((await apiProcess(env)).child);
      assert.ok(!fs.existsSync(conversionDir), 'the next start removed the directory');
    } finally {
      await Promise.all(processes.map((child) => stopped(child, 'SIGTERM')));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a directory whose PID now belongs to another process is removed too; a running one’s is kept, and another PID namespace’s until long untouched', async () => {
    const stat = fs.readFileSync('/proc/self/stat', 'latin1');
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    const namespace = Number(/\[(\d+)\]/.exec(fs.readlinkSync('/proc/self/ns/pid'))![1]);
    const dead = 2 ** 22 + 1;
    const dirs = {
      ours: `notarization-docx-${namespace}-${process.pid}-${ticks}-kept`,
      reused: `notarization-docx-${namespace}-${process.pid}-${ticks - 1}-gone`,
      dead: `notarization-docx-${namespace}-${dead}-${ticks}-gone`,
      // Another container sharing /tmp: its PIDs mean nothing here, its conversion may be running.
      otherNamespace: `notarization-docx-${namespace + 1}-${dead}-${ticks}-kept`,
      otherNamespaceLongUntouched: `notarization-docx-${namespace + 1}-${dead}-${ticks}-gone`,
      olderNaming: `notarization-docx-${dead}-${ticks}-kept`,
      olderNamingLongUntouched: `notarization-docx-${dead}-${ticks}-gone`,
    };
    for (const dir of Object.values(dirs)) fs.mkdirSync(path.join(os.tmpdir(), dir));
    // Untouched for an hour and a minute: longer than any conversion lasts (ten times its three runs).
    const longAgo = new Date(Date.now() - 61 * 60_000);
    for (const dir of [dirs.otherNamespaceLongUntouched, dirs.olderNamingLongUntouched])
      fs.utimesSync(path.join(os.tmpdir(), dir), longAgo, longAgo);
    try {
      const app = await startSecondApp({});
      await app.close();
      const left = Object.entries(dirs)
        .filter(([, dir]) => fs.existsSync(path.join(os.tmpdir(), dir)))
        .map(([name]) => name);
      assert.deepEqual(left, ['ours', 'otherNamespace', 'olderNaming']);
    } finally {
      for (const dir of Object.values(dirs))
        fs.rmSync(path.join(os.tmpdir(), dir), { recursive: true, force: true });
    }
  });
});
