import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

/** A media tool (ffmpeg, ffprobe, janus-pp-rec) that could not do its work on these files. */
export class MediaToolError extends Error {}

/** The OS's lowest scheduling priority: work that may wait gives the CPU to everything else. */
const BACKGROUND_PRIORITY = 19;

/**
 * util-linux's `setpriv`, through which a tool is killed with the process that started it
 * (PR_SET_PDEATHSIG): a media worker that dies mid-composition leaves no FFmpeg running on as an orphan
 * beside the attempt that replaces it. Debian always has it; elsewhere tools run without it.
 */
const DIES_WITH_WORKER = ['/usr/bin/setpriv', '/bin/setpriv']
  .filter((candidate) => fs.existsSync(candidate))
  .slice(0, 1)
  .flatMap((setpriv) => [setpriv, '--pdeathsig', 'KILL', '--']);

/**
 * Runs a media tool; its failure is a MediaToolError with the tool's own last words. `background` runs it
 * at the lowest priority, so composing yields the CPU to the acts and requests beside it.
 */
export function runTool(
  command: string,
  args: string[],
  { timeoutMs = 30 * 60_000, background = false } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const [program, ...programArgs] = [...DIES_WITH_WORKER, command, ...args];
    const child = execFile(
      program,
      programArgs,
      { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        const said = (stderr ?? '').trim().split('\n').slice(-3).join(' ').slice(0, 500);
        reject(new MediaToolError(`${command} failed (${String(err.code)}): ${said || err.message}`));
      },
    );
    if (background && child.pid) os.setPriority(child.pid, BACKGROUND_PRIORITY);
  });
}
