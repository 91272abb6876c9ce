import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** A media tool (ffmpeg, ffprobe, janus-pp-rec) that could not do its work on these files. */
export class MediaToolError extends Error {}

/** Runs a media tool; its failure is a MediaToolError with the tool's own last words. */
export async function runTool(command: string, args: string[], timeoutMs = 30 * 60_000): Promise<string> {
  try {
    const { stdout } = await execFileAsync(command, args, {
      timeout: timeoutMs,
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (err) {
    const { stderr, code } = err as { stderr?: string; code?: unknown };
    const said = (stderr ?? '').trim().split('\n').slice(-3).join(' ').slice(0, 500);
    throw new MediaToolError(`${command} failed (${String(code)}): ${said || (err as Error).message}`);
  }
}
