import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { recordingsClosed, tracksIn } from '../../src/media/recordingTracks';

/** An `.mjr` as Janus writes it once a first packet came: its magic, then its JSON header (`u`: that packet). */
function mjr(file: string, header: Record<string, unknown> | undefined) {
  const magic = Buffer.from('MJR00002');
  if (!header) return fs.writeFileSync(file, magic);
  const json = Buffer.from(JSON.stringify(header));
  const size = Buffer.alloc(2);
  size.writeUInt16BE(json.length);
  fs.writeFileSync(file, Buffer.concat([magic, size, json]));
}

/**
 * Janus writes a room's recordings as `….mjr.tmp` and renames each once closed, its buffer flushed
 * (recordings_tmp_ext): read before, the end of every stream is missing, and all of a short one.
 */
describe("a room's recorded tracks, as the evidence reads them", function () {
  this.timeout(30_000);
  let dir: string;
  const name = (who: string, kind: 'audio' | 'video') =>
    `videoroom-R.1-user-${who}~n0nce-1796660000000000-${kind}-${kind === 'audio' ? 0 : 1}.mjr`;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recording-tracks-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('waits until Janus has closed them, and reads them by their closed names', async () => {
    const audio = path.join(dir, name('notary', 'audio'));
    mjr(`${audio}.tmp`, { t: 'a', c: 'opus', s: 1796660000000000, u: 1796660000100000 });
    mjr(path.join(dir, name('signer-0', 'video')), undefined);
    const since = Date.now();
    setTimeout(() => fs.renameSync(`${audio}.tmp`, audio), 400);
    assert.equal(await recordingsClosed(dir, 'R.1', 10_000), true);
    assert.ok(Date.now() - since >= 400, 'not before Janus closed it');
    const tracks = await tracksIn(dir, 'R.1');
    assert.deepEqual(
      tracks.map(({ name, identity, kind, firstPacketUs }) => ({ name, identity, kind, firstPacketUs })),
      [{ name: name('notary', 'audio'), identity: 'notary', kind: 'audio', firstPacketUs: 1796660000100000 }],
      'a track without a packet is left out',
    );
  });

  it('a media server that died with them open: false at the deadline, and what reached the disk is read', async () => {
    const video = path.join(dir, `${name('signer-0', 'video')}.tmp`);
    mjr(video, { t: 'v', c: 'vp8', s: 1796660000000000, u: 1796660000200000 });
    const since = Date.now();
    assert.equal(await recordingsClosed(dir, 'R.1', 300), false);
    assert.ok(Date.now() - since < 2_000);
    const [track] = await tracksIn(dir, 'R.1');
    assert.deepEqual(
      { file: track.file, name: track.name, identity: track.identity, kind: track.kind },
      { file: video, name: name('signer-0', 'video'), identity: 'signer-0', kind: 'video' },
    );
  });
});
