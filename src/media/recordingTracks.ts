import fs from 'node:fs';
import path from 'node:path';
import { isMediaIdentity, type MediaIdentity } from '../../core/session/media';
import { runTool } from './mediaTools';

/** One stream Janus recorded of one participant in one room (a `.mjr` file). */
export interface RecordedTrack {
  file: string;
  /** The file's name once Janus has closed it (`….mjr`), whatever it is called now. */
  name: string;
  identity: MediaIdentity;
  kind: 'audio' | 'video';
  /** When its first packet arrived (epoch µs): where it starts in the room's timeline. */
  firstPacketUs: number;
}

/**
 * `videoroom-<room>-user-<publisher id>-<µs>-<audio|video>-<n>.mjr`; publisher ids are `<identity>~<nonce>`.
 * Janus writes it as `….mjr.tmp` (recordings_tmp_ext) and renames it once closed, its buffer flushed.
 */
const TRACK_NAME = /^(.+)~[A-Za-z0-9_-]+-(\d+)-(audio|video)-\d+\.mjr(\.tmp)?$/;
const OPEN = '.tmp';

const recordingsOf = async (dir: string, room: string) => {
  const prefix = `videoroom-${room}-user-`;
  const files = await fs.promises.readdir(dir).catch(() => [] as string[]);
  return files.filter((f) => f.startsWith(prefix) && TRACK_NAME.test(f.slice(prefix.length))).sort();
};

/**
 * Waits until Janus has closed the room's recordings: a destroyed room's are closed just after, and until
 * then the end of each is in Janus's buffer, and all of a short one. False if some are still open at the
 * deadline (a media server that died with them open): what reached the disk is then all there is.
 */
export async function recordingsClosed(dir: string, room: string, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while ((await recordingsOf(dir, room)).some((f) => f.endsWith(OPEN))) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/** The tracks recorded in one room's directory, with when each began; files with no media are left out. */
export async function tracksIn(dir: string, room: string): Promise<RecordedTrack[]> {
  const prefix = `videoroom-${room}-user-`;
  const tracks: RecordedTrack[] = [];
  for (const name of await recordingsOf(dir, room)) {
    const match = TRACK_NAME.exec(name.slice(prefix.length))!;
    if (!isMediaIdentity(match[1])) continue;
    const file = path.join(dir, name);
    const header = await trackHeader(file);
    if (!header?.u) continue;
    tracks.push({
      file,
      name: name.endsWith(OPEN) ? name.slice(0, -OPEN.length) : name,
      identity: match[1],
      kind: match[3] as 'audio' | 'video',
      firstPacketUs: header.u,
    });
  }
  return tracks;
}

async function trackHeader(file: string): Promise<{ u?: number } | undefined> {
  const stdout = await runTool('janus-pp-rec', ['-j', file]).catch(() => '');
  try {
    return JSON.parse(stdout.trim()) as { u?: number };
  } catch {
    return undefined;
  }
}

/** The track as a playable file (Opus in Ogg for audio, VP8 in WebM for video), by Janus's own tool. */
export async function playableTrack(track: RecordedTrack, workDir: string): Promise<string> {
  const out = path.join(
    workDir,
    `${path.basename(track.name, '.mjr')}.${track.kind === 'audio' ? 'opus' : 'webm'}`,
  );
  await runTool('janus-pp-rec', ['-d', '2', track.file, out]);
  return out;
}
