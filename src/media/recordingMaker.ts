import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { intervalsOnCamera } from '../reads/presence';
import { pipeline } from 'node:stream/promises';
import type { Sequelize } from 'sequelize';
import type { ObjectStore } from '../objectStore/objectStore';
import type { CalendarSpan } from '../mediaConfig';
import { compositionArgs, gridOf, peopleOf, type PlacedTrack } from './composition';
import { playableTrack, tracksIn } from './recordingTracks';
import { runTool } from './mediaTools';
import { roomsOf, type MediaRoom } from './rooms';
import { markAvailable, markProcessing, recordingOf, roomLabels, type RecordingSegment } from './recordings';

const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
export const RECORDING_CONTENT_TYPE = 'video/webm';

export interface MadeRecording {
  recordingId: string;
  sha256: string;
  durationSeconds: number;
  sizeBytes: number;
}

async function sha256Of(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

export async function mediaDuration(file: string): Promise<number> {
  const stdout = await runTool('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'csv=p=0',
    file,
  ]);
  return Number(stdout.trim());
}

interface RoomTracks {
  room: MediaRoom;
  placed: PlacedTrack[];
  raw: Awaited<ReturnType<typeof tracksIn>>;
}

async function roomTracks(room: MediaRoom, work: string): Promise<RoomTracks> {
  const raw = await tracksIn(room.recording_dir, room.room);
  const opened = new Date(room.opened_at).getTime();
  const placed: PlacedTrack[] = [];
  for (const track of raw) {
    placed.push({
      file: await playableTrack(track, work),
      kind: track.kind,
      identity: track.identity,
      offsetSeconds: (track.firstPacketUs / 1000 - opened) / 1000,
    });
  }
  return { room, placed, raw };
}

/**
 * Makes the act's recording from what the media server recorded: each room (segment) composed over its
 * whole open time, the segments joined in order into one WebM, hashed, and stored with the raw per-stream
 * files beside it; then the rooms' local files are removed. Done once: a stored recording is answered.
 */
export async function makeRecording(
  deps: { sequelize: Sequelize; store: ObjectStore; retention: CalendarSpan },
  sessionId: string,
): Promise<MadeRecording> {
  const { sequelize, store } = deps;
  const existing = await recordingOf(sequelize, sessionId);
  if (!existing) throw new Error(`session ${sessionId} has no recording`);
  if (existing.status === 'available') return summaryOf(existing);
  await markProcessing(sequelize, sessionId);
  const rooms = await roomsOf(sequelize, sessionId);
  const work = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'recording-'));
  try {
    const all: RoomTracks[] = [];
    for (const room of rooms) all.push(await roomTracks(room, work));
    const grid = gridOf(Math.max(1, ...all.map((r) => peopleOf(r.placed).length)));
    const labelFiles = new Map();
    for (const [identity, label] of await roomLabels(sequelize, sessionId)) {
      const file = path.join(work, `label-${identity}.txt`);
      await fs.promises.writeFile(file, label);
      labelFiles.set(identity, file);
    }
    const parts: string[] = [];
    const segments: RecordingSegment[] = [];
    for (const { room, placed, raw } of all) {
      const endedAt = new Date(room.closed_at ?? Date.now());
      const duration = (endedAt.getTime() - new Date(room.opened_at).getTime()) / 1000;
      const output = path.join(work, `segment-${room.segment}.webm`);
      const args = compositionArgs({
        tracks: placed,
        durationSeconds: duration,
        grid,
        labelFiles,
        fontFile: FONT,
        output,
      });
      await runTool('ffmpeg', args, 6 * 3600_000);
      parts.push(output);
      const tracks: RecordingSegment['tracks'] = [];
      for (const track of raw) {
        const key = `recordings/${sessionId}/${existing.id}/segment-${room.segment}/${path.basename(track.file)}`;
        await store.putFile(key, track.file, 'application/octet-stream');
        tracks.push({
          identity: track.identity,
          kind: track.kind,
          object_key: key,
          size_bytes: (await fs.promises.stat(track.file)).size,
        });
      }
      const onCamera = await intervalsOnCamera(sequelize, sessionId, room.segment, endedAt.toISOString());
      const people = [...new Set([...peopleOf(placed), ...onCamera.keys()])].sort();
      segments.push({
        segment: room.segment,
        started_at: new Date(room.opened_at).toISOString(),
        ended_at: endedAt.toISOString(),
        duration_seconds: Math.round(duration * 1000) / 1000,
        participants: people.map((identity) => ({ identity, intervals: onCamera.get(identity) ?? [] })),
        tracks,
      });
    }
    const file = await joined(parts, work);
    const made = {
      objectKey: `recordings/${sessionId}/${existing.id}.webm`,
      contentType: RECORDING_CONTENT_TYPE,
      durationSeconds: Math.round((await mediaDuration(file)) * 1000) / 1000,
      sizeBytes: (await fs.promises.stat(file)).size,
      sha256: await sha256Of(file),
      segments,
      retention: deps.retention,
    };
    await store.putFile(made.objectKey, file, RECORDING_CONTENT_TYPE);
    await markAvailable(sequelize, sessionId, made);
    for (const room of rooms) await fs.promises.rm(room.recording_dir, { recursive: true, force: true });
    return { recordingId: existing.id, ...made };
  } finally {
    await fs.promises.rm(work, { recursive: true, force: true });
  }
}

/** The segments in order as one file: the same codecs and size throughout, so joined without re-encoding. */
async function joined(parts: string[], work: string): Promise<string> {
  if (parts.length === 1) return parts[0];
  const list = path.join(work, 'segments.txt');
  await fs.promises.writeFile(list, parts.map((p) => `file '${p}'`).join('\n'));
  const output = path.join(work, 'recording.webm');
  await runTool('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'concat',
    '-safe',
    '0',
    '-i',
    list,
    '-c',
    'copy',
    output,
  ]);
  return output;
}

function summaryOf(row: NonNullable<Awaited<ReturnType<typeof recordingOf>>>): MadeRecording {
  return {
    recordingId: row.id,
    sha256: row.sha256!,
    durationSeconds: Number(row.duration_seconds),
    sizeBytes: Number(row.size_bytes),
  };
}
