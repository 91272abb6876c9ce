import crypto from 'node:crypto';
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { runTool } from './mediaTools';

export const WEBM = 'video/webm';

export async function sha256Of(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

/** A stored media file's description: its length (ffprobe), size and hash. */
export async function describeMedia(file: string) {
  const stdout = await runTool('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'csv=p=0',
    file,
  ]);
  return {
    durationSeconds: Math.round(Number(stdout.trim()) * 1000) / 1000,
    sizeBytes: (await fs.promises.stat(file)).size,
    sha256: await sha256Of(file),
  };
}
