import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startWorker } from '../../worker/createWorker';
import { testEnvironment } from '../support/environment';
import { eventually } from '../support/eventually';
import { request } from '../support/http';
import { getSession, signer, waitForSession } from '../support/sessions';
import { processRuns, startWorkerProcess, type WorkerProcess } from '../support/workerProcess';
import { download, removeTempFiles, sha256 } from '../documents/helpers';
import { completeRecordedAct, liveTeamSession, mediaBrowsers, notaryAction } from './helpers';
import { probe } from './mediaProbe';
import type { Config } from '../../src/config';

const API = '/api/integrationsv2';

/** This process's worker, with the roles given; the environment's own (every role) is put back after. */
async function restartWorker(roles: Config['workerRoles']) {
  const env = testEnvironment();
  await env.runtime.worker!.shutdown();
  env.runtime.worker = await startWorker({
    config: { ...env.config, workerRoles: roles },
    logger: env.runtime.logger,
    sequelize: env.runtime.sequelize,
    temporalAddress: env.config.temporalAddress!,
    workflowBundle: env.workflowBundle,
  });
}

/**
 * An `ffmpeg` first on the media worker's PATH that runs the real one, except for the composition of the
 * grid (its `-filter_complex`) whose labels name `signer`, which it holds after writing its pid: the worker
 * is killed inside this act's composing whatever the machine's speed, while the earlier tests' acts still
 * queued are composed as usual, and the hold ends only when something kills it.
 */
function holdingComposition(signer: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'held-ffmpeg-'));
  const real = execFileSync('sh', ['-c', 'command -v ffmpeg'], { encoding: 'utf8' }).trim();
  const started = path.join(dir, 'started');
  const shim = [
    '#!/bin/sh',
    'case "$*" in *filter_complex*)',
    '  for a in "$@"; do case "$a" in */evidence.webm) work=$(dirname "$a");; esac; done',
    `  if grep -qs '${signer}' "$work"/label-*.txt; then echo $$ > '${started}'; while :; do sleep 1; done; fi;;`,
    'esac',
    `exec '${real}' "$@"`,
  ];
  fs.writeFileSync(path.join(dir, 'ffmpeg'), `${shim.join('\n')}\n`, { mode: 0o755 });
  return { dir, started, env: { PATH: `${dir}:${process.env.PATH}` } };
}

describe('the recording: the evidence at once, the grid composed apart on media workers (issue 72)', function () {
  this.timeout(240_000);
  const browsers = mediaBrowsers();
  let media: WorkerProcess | undefined;
  let held: ReturnType<typeof holdingComposition>;
  const heldSigner = `Held${crypto.randomUUID().slice(0, 8)}`;
  before(() => {
    held = holdingComposition(heldSigner);
  });
  after(async () => {
    media?.kill();
    fs.rmSync(held.dir, { recursive: true, force: true });
    await restartWorker(['sessions', 'media']);
    removeTempFiles();
  });

  it('media work runs on its own workers; a composing worker killed mid-grid is replaced and the grid made again from the stored evidence', async () => {
    // Sessions here; media work in a worker process of its own, as docker-compose runs it.
    await restartWorker(['sessions']);
    media = await startWorkerProcess({ WORKER_ROLES: 'media', ...held.env });
    const live = await liveTeamSession({ all_signers: [signer(0, { first_name: heldSigner })] });
    const recordingOf = async () =>
      (await request(`${API}/sessions/${live.id}/recording`, { auth: live.account.api_key })).body.recording;
    assert.equal((await notaryAction(live.notaryToken, live.id, 'start')).status, 200);
    await completeRecordedAct(browsers.granted, {
      id: live.id,
      notaryToken: live.notaryToken,
      signingUrl: live.signingUrl,
      complete: () => notaryAction(live.notaryToken, live.id, 'complete'),
    });

    const evidence = await eventually(recordingOf, (r) => r.status === 'available', 'the evidence', {
      timeoutMs: 60_000,
    });
    assert.ok(
      Date.parse(evidence.available_at) - Date.parse(evidence.ended_at) <= 60_000,
      JSON.stringify(evidence),
    );
    // The grid's FFmpeg holds: the media worker dies there, inside the composing.
    const composingPid = Number(
      await eventually(
        () => (fs.existsSync(held.started) ? fs.readFileSync(held.started, 'utf8').trim() : ''),
        (pid) => pid !== '',
        'the composing FFmpeg',
        { timeoutMs: 60_000 },
      ),
    );
    assert.equal((await recordingOf()).renditions[0].status, 'processing');
    media.kill();
    await media.exited;
    // Its FFmpeg dies with it rather than composing on as an orphan beside the attempt that replaces it.
    await eventually(
      () => processRuns(composingPid),
      (running) => !running,
      'the killed worker’s FFmpeg to end',
      { timeoutMs: 5_000, intervalMs: 20 },
    );
    // Nothing of the session waits for the view: its documents go out while no media worker runs.
    await waitForSession(live.account.api_key, live.id, (s) => s.documents_status === 'released', 60_000);
    assert.equal((await recordingOf()).renditions[0].status, 'processing');

    media = await startWorkerProcess({ WORKER_ROLES: 'media' });
    // Activities only, on purpose: its start is nothing for an operator to act on.
    assert.deepEqual(media.warnings(), []);
    const made = await eventually(recordingOf, (r) => r.renditions[0]?.status === 'available', 'the grid', {
      timeoutMs: 120_000,
    });
    const [grid] = made.renditions;
    // The integrator is told, after the session's own last event: in its audit chain as the webhook carries it.
    const audit = await eventually(
      async () => (await request(`${API}/sessions/${live.id}/audit`, { auth: live.account.api_key })).body,
      (a) => a.records.some((r: any) => r.event === 'rendition_available'),
      'the grid’s event',
    );
    const announced = audit.records.find((r: any) => r.event === 'rendition_available').payload;
    const { duration_seconds, ...file } = announced.data;
    assert.deepEqual(file, { kind: 'grid', sha256: grid.sha256, size_bytes: grid.size_bytes });
    assert.ok(Math.abs(duration_seconds - grid.duration_seconds) < 0.01, JSON.stringify(announced));
    assert.equal(announced.status, (await getSession(live.account.api_key, live.id)).body.status);
    assert.equal(audit.records.at(-1).event, 'rendition_available');
    assert.equal(audit.intact, true);
    assert.equal(made.sha256, evidence.sha256, 'the evidence is unchanged by its view');
    assert.notEqual(grid.sha256, evidence.sha256);
    const bytes = (await download(grid.download_url)).bytes;
    assert.equal(sha256(bytes), grid.sha256);
    assert.equal(bytes.length, grid.size_bytes);
    const probed = await probe(bytes);
    assert.deepEqual(probed.streams, ['audio/opus', 'video/vp8'], 'one composed picture, the voices mixed');
    assert.ok(
      Math.abs(probed.duration - evidence.duration_seconds) <= 1,
      `${probed.duration} s of ${evidence.duration_seconds}`,
    );
    const evidenceStreams = (await probe((await download(made.download_url)).bytes)).streams;
    assert.deepEqual(evidenceStreams, [
      'audio/opus notary',
      'audio/opus signer-0',
      'video/vp8 notary',
      'video/vp8 signer-0',
    ]);
  });
});
