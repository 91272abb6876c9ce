import fs from 'node:fs';
import path from 'node:path';
import { isMediaIdentity, type MediaIdentity } from '../../core/session/media';
import { runTool } from './mediaTools';

/** One stream Janus recorded of one participant in one room (a `.mjr` file). */
export interface RecordedTrack {
  file: string;
  identity: MediaIdentity;
  kind: 'audio' | 'video';
  /** When its first packet arrived (epoch µs): where it starts in the room's timeline. */
  firstPacketUs: number;
}

/** `videoroom-<room>-user-<publisher id>-<µs>-<audio|video>-<n>.mjr`; publisher ids are `<identity>~<nonce>`. */
const TRACK_NAME = /^(.+)~[A-Za-z0-9_-]+-(\d+)-(audio|video)-\d+\.mjr$/;

/** The tracks recorded in one room's directory, with when each began; files with no media are left out. */
export async function tracksIn(dir: string, room: string): Promise<RecordedTrack[]> {
  const prefix = `videoroom-${room}-user-`;
  const files = (await fs.promises.readdir(dir).catch(() => [] as string[])).filter((f) =>
    f.startsWith(prefix),
  );
  const tracks: RecordedTrack[] = [];
  for (const name of files.sort()) {
    const match = TRACK_NAME.exec(name.slice(prefix.length));
    if (!match || !isMediaIdentity(match[1])) continue;
    const file = path.join(dir, name);
    const header = await trackHeader(file);
    if (!header?.u) continue;
    tracks.push({ file, identity: match[1], kind: match[3] as 'audio' | 'video', firstPacketUs: header.u });
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
    `${path.basename(track.file, '.mjr')}.${track.kind === 'audio' ? 'opus' : 'webm'}`,
  );
  await runTool('janus-pp-rec', ['-d', '2', track.file, out]);
  return out;
}
