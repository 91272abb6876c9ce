import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Sequelize } from 'sequelize';
import type { ObjectStore } from '../objectStore/objectStore';
import { isMediaIdentity } from '../../core/session/media';
import { compositionArgs, type PlacedStream } from './composition';
import { STREAM_TAGS } from './evidenceMux';
import { describeMedia, WEBM } from './mediaFiles';
import { runTool } from './mediaTools';
import { recordingOf, roomLabels } from './recordings';
import {
  markRenditionAvailable,
  markRenditionProcessing,
  renditionOf,
  type MadeRendition,
} from './renditions';

const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
/** Composing takes about half the act's length on one core: an hour's act gets this long. */
const COMPOSE_TIMEOUT_MS = 6 * 3600_000;

/**
 * The act's composed grid, made from its stored evidence alone (so an attempt that died starts again
 * from the same input), at the lowest CPU priority, then hashed and stored beside the evidence. Done once:
 * a stored grid is answered.
 */
export async function composeGrid(
  deps: { sequelize: Sequelize; store: ObjectStore },
  sessionId: string,
): Promise<MadeRendition> {
  const { sequelize, store } = deps;
  const recording = await recordingOf(sequelize, sessionId);
  if (recording?.status !== 'available') throw new Error(`session ${sessionId} has no stored recording`);
  const existing = await renditionOf(sequelize, recording.id, 'grid');
  if (existing?.status === 'available') return summaryOf(existing);
  await markRenditionProcessing(sequelize, recording.id, 'grid');
  const work = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'grid-'));
  try {
    const input = path.join(work, 'evidence.webm');
    await pipeline(await store.openRead(recording.object_key!), fs.createWriteStream(input));
    const labelFiles = new Map();
    for (const [identity, label] of await roomLabels(sequelize, sessionId)) {
      const file = path.join(work, `label-${identity}.txt`);
      await fs.promises.writeFile(file, label);
      labelFiles.set(identity, file);
    }
    const output = path.join(work, 'grid.webm');
    const args = compositionArgs({
      input,
      streams: await streamsOf(input),
      durationSeconds: Number(recording.duration_seconds),
      labelFiles,
      fontFile: FONT,
      output,
    });
    await runTool('ffmpeg', args, { timeoutMs: COMPOSE_TIMEOUT_MS, background: true });
    const made = {
      objectKey: `recordings/${sessionId}/${recording.id}-grid.webm`,
      contentType: WEBM,
      ...(await describeMedia(output)),
    };
    await store.putFile(made.objectKey, output, WEBM);
    await markRenditionAvailable(sequelize, recording.id, 'grid', made);
    return made;
  } finally {
    await fs.promises.rm(work, { recursive: true, force: true });
  }
}

/** The evidence's streams as its tags describe them: whose each one is, and where it starts. */
async function streamsOf(file: string): Promise<PlacedStream[]> {
  const stdout = await runTool('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'stream=index,codec_type,start_time:stream_tags',
    '-of',
    'json',
    file,
  ]);
  const { streams } = JSON.parse(stdout) as {
    streams: Array<{ index: number; codec_type: string; start_time?: string; tags?: Record<string, string> }>;
  };
  return streams.flatMap((s) => {
    const tag = Object.entries(s.tags ?? {}).find(([k]) => k.toUpperCase() === STREAM_TAGS.identity)?.[1];
    if (!tag || !isMediaIdentity(tag) || (s.codec_type !== 'audio' && s.codec_type !== 'video')) return [];
    return [{ index: s.index, kind: s.codec_type, identity: tag, offsetSeconds: Number(s.start_time ?? 0) }];
  });
}

function summaryOf(row: NonNullable<Awaited<ReturnType<typeof renditionOf>>>): MadeRendition {
  return {
    objectKey: row.object_key!,
    contentType: row.content_type!,
    durationSeconds: Number(row.duration_seconds),
    sizeBytes: Number(row.size_bytes),
    sha256: row.sha256!,
  };
}
