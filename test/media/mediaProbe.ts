import assert from 'node:assert/strict';
import { runTool, tempFile } from '../documents/helpers';

/** ffprobe's view of a media file: its streams' kinds (with whose each is, where tagged) and its duration in seconds. */
export async function probe(bytes: Buffer) {
  const file = tempFile(bytes, 'recording.webm');
  const result = await runTool('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_type,codec_name:stream_tags=IDENTITY:format=duration',
    '-of',
    'json',
    file,
  ]);
  assert.equal(result.code, 0, result.stderr);
  const json = JSON.parse(result.stdout) as {
    streams: Array<{ codec_type: string; codec_name: string; tags?: { IDENTITY?: string } }>;
    format: { duration: string };
  };
  return {
    streams: json.streams
      .map((s) => `${s.codec_type}/${s.codec_name}${s.tags?.IDENTITY ? ` ${s.tags.IDENTITY}` : ''}`)
      .sort(),
    duration: Number(json.format.duration),
  };
}
