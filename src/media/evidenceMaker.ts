import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Sequelize } from 'sequelize';
import { intervalsOnCamera } from '../reads/presence';
import type { ObjectStore } from '../objectStore/objectStore';
import type { CalendarSpan } from '../mediaConfig';
import { peopleOf } from './composition';
import { emptyActArgs, evidenceMuxArgs, type EvidenceTrack } from './evidenceMux';
import { describeMedia, WEBM } from './mediaFiles';
import { playableTrack, recordingsClosed, tracksIn, type RecordedTrack } from './recordingTracks';
import { runTool } from './mediaTools';
import { roomsOf, type OpenedRoom } from './rooms';
import { owe } from './renditions';
import { markAvailable, markProcessing, recordingOf, roomLabels, type RecordingSegment } from './recordings';

export interface MadeRecording {
  recordingId: string;
  sha256: string;
  durationSeconds: number;
  sizeBytes: number;
}

/** Janus closes a destroyed room's recordings within milliseconds; longer, it died with them open. */
const RECORDINGS_CLOSED_WITHIN_MS = 10_000;

/**
 * Makes the act's evidence from what the media server recorded: every participant's streams from every
 * room (segment), copied without re-encoding into one WebM on the act's clock, hashed, and stored with the
 * raw per-stream files beside it; the composed grid is owed from then on. The rooms' local files are
 * removed after. Done once: a stored recording is answered. Its time grows with the bytes, not the CPU.
 */
export async function makeEvidence(
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
    const actStart = Math.min(...rooms.map((r) => new Date(r.opened_at).getTime()));
    const tracks: EvidenceTrack[] = [];
    const segments: RecordingSegment[] = [];
    for (const room of rooms) {
      // The act's end closed the last room; an earlier one went with its media server, whose files stay open.
      if (room === rooms.at(-1))
        await recordingsClosed(room.recording_dir, room.room, RECORDINGS_CLOSED_WITHIN_MS);
      const raw = await tracksIn(room.recording_dir, room.room);
      for (const track of raw)
        tracks.push({
          file: await playableTrack(track, work),
          kind: track.kind,
          identity: track.identity,
          segment: room.segment,
          offsetSeconds: (track.firstPacketUs / 1000 - actStart) / 1000,
        });
      segments.push(await segmentOf(deps, { sessionId, recordingId: existing.id, room, raw }));
    }
    const file = path.join(work, 'evidence.webm');
    const actEnd = Math.max(...rooms.map((r) => new Date(r.closed_at ?? Date.now()).getTime()));
    await runTool(
      'ffmpeg',
      tracks.length
        ? evidenceMuxArgs(tracks, await roomLabels(sequelize, sessionId), file)
        : emptyActArgs((actEnd - actStart) / 1000, file),
    );
    const made = {
      objectKey: `recordings/${sessionId}/${existing.id}.webm`,
      contentType: WEBM,
      ...(await describeMedia(file)),
      segments,
      retention: deps.retention,
    };
    await store.putFile(made.objectKey, file, WEBM);
    await owe(sequelize, existing.id, 'grid');
    await markAvailable(sequelize, sessionId, made);
    for (const room of rooms) await fs.promises.rm(room.recording_dir, { recursive: true, force: true });
    return { recordingId: existing.id, ...made };
  } finally {
    await fs.promises.rm(work, { recursive: true, force: true });
  }
}

/** One room's part: its raw streams stored as the media server wrote them, and who was on camera when. */
async function segmentOf(
  deps: { sequelize: Sequelize; store: ObjectStore },
  p: { sessionId: string; recordingId: string; room: OpenedRoom; raw: RecordedTrack[] },
): Promise<RecordingSegment> {
  const { room, sessionId } = p;
  const endedAt = new Date(room.closed_at ?? Date.now());
  const tracks: RecordingSegment['tracks'] = [];
  for (const track of p.raw) {
    const key = `recordings/${sessionId}/${p.recordingId}/segment-${room.segment}/${track.name}`;
    await deps.store.putFile(key, track.file, 'application/octet-stream');
    tracks.push({
      identity: track.identity,
      kind: track.kind,
      object_key: key,
      size_bytes: (await fs.promises.stat(track.file)).size,
    });
  }
  const onCamera = await intervalsOnCamera(deps.sequelize, sessionId, room.segment, endedAt.toISOString());
  const people = [...new Set([...peopleOf(p.raw), ...onCamera.keys()])].sort();
  const duration = (endedAt.getTime() - new Date(room.opened_at).getTime()) / 1000;
  return {
    segment: room.segment,
    started_at: new Date(room.opened_at).toISOString(),
    ended_at: endedAt.toISOString(),
    duration_seconds: Math.round(duration * 1000) / 1000,
    participants: people.map((identity) => ({ identity, intervals: onCamera.get(identity) ?? [] })),
    tracks,
  };
}

function summaryOf(row: NonNullable<Awaited<ReturnType<typeof recordingOf>>>): MadeRecording {
  return {
    recordingId: row.id,
    sha256: row.sha256!,
    durationSeconds: Number(row.duration_seconds),
    sizeBytes: Number(row.size_bytes),
  };
}
