import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ComposeStack } from './stack';

const run = promisify(execFile);

/**
 * The rotation a run sets (LOG_MAX_SIZE, LOG_MAX_FILES): small, so that the run's own logs roll over;
 * docker-compose.yml's defaults are 50m × 5.
 */
export const LOG_ROTATION = { maxSize: '100k', maxBytes: 100 * 1024, maxFiles: 3 } as const;
/** json-file rotates once a write has taken the file past its size: at most one log line over it. */
const LINE_SLACK = 16 * 1024;

interface ContainerLog {
  name: string;
  type: string;
  config: Record<string, string>;
  files: Array<{ name: string; bytes: number }>;
}

async function containerLogs(stack: ComposeStack): Promise<ContainerLog[]> {
  const names = (await stack.containers()).map((c) => c.Name);
  const { stdout } = await run('docker', [
    'inspect',
    '--format',
    '{{json .Name}}\t{{json .HostConfig.LogConfig}}\t{{json .LogPath}}',
    ...names,
  ]);
  return stdout
    .trim()
    .split('\n')
    .map((line) => {
      const [name, logConfig, logPath] = line.split('\t').map((field) => JSON.parse(field));
      const dir = path.dirname(logPath);
      const files = fs
        .readdirSync(dir)
        .filter((f) => f.startsWith(path.basename(logPath)))
        .map((f) => ({ name: f, bytes: fs.statSync(path.join(dir, f)).size }));
      return { name: String(name).replace(/^\//, ''), type: logConfig.Type, config: logConfig.Config, files };
    });
}

/**
 * Every container of the stack, the one-shot jobs too, logs through json-file with the run's limits, none
 * keeps more files than they allow nor a file much past their size, and those that logged more have rotated.
 */
export async function logRotation(stack: ComposeStack) {
  const logs = await containerLogs(stack);
  const wrong = logs.filter(
    (l) =>
      l.type !== 'json-file' ||
      l.config['max-size'] !== LOG_ROTATION.maxSize ||
      l.config['max-file'] !== String(LOG_ROTATION.maxFiles) ||
      l.files.length > LOG_ROTATION.maxFiles ||
      l.files.some((f) => f.bytes > LOG_ROTATION.maxBytes + LINE_SLACK),
  );
  if (wrong.length)
    throw new Error(
      `not rotated as set: ${wrong.map((l) => `${l.name} ${l.type} ${JSON.stringify(l.config)} ${JSON.stringify(l.files)}`).join('; ')}`,
    );
  const rotated = logs.filter((l) => l.files.length > 1);
  if (!rotated.length) throw new Error('no container logged past the size, so no rotation was seen');
  return {
    containers: logs.length,
    rotated: rotated.map((l) => `${l.name} (${l.files.length} files)`),
    largestBytes: Math.max(...logs.flatMap((l) => l.files.map((f) => f.bytes))),
  };
}
