import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Later CLI tags carry a `replace` directive in go.mod, which `go install pkg@version` refuses,
 * so the version is pinned to the last one that installs from the module proxy.
 */
export const TEMPORAL_CLI_VERSION = 'v1.5.1';
const MODULE = 'github.com/temporalio/cli/cmd/temporal';

export function temporalCliCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'notarization-service', `temporal-cli-${TEMPORAL_CLI_VERSION}`);
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function onPath(command: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir && isExecutable(path.join(dir, command))) return path.join(dir, command);
  }
  return undefined;
}

/** The first Temporal CLI found: TEMPORAL_CLI_PATH, then PATH, then the project's cache. */
export function findTemporalCli(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.TEMPORAL_CLI_PATH) {
    if (!isExecutable(env.TEMPORAL_CLI_PATH)) {
      throw new Error(`TEMPORAL_CLI_PATH=${env.TEMPORAL_CLI_PATH} is not an executable file`);
    }
    return env.TEMPORAL_CLI_PATH;
  }
  const cached = path.join(temporalCliCacheDir(env), 'temporal');
  return onPath('temporal', env) ?? (isExecutable(cached) ? cached : undefined);
}

/**
 * Go's own installer puts it in /usr/local/go without touching anyone's PATH, so a user whose shell
 * never added it still has Go: `go` on PATH, then GOROOT's, then that standard place.
 */
export function findGo(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = [
    onPath('go', env),
    env.GOROOT ? path.join(env.GOROOT, 'bin', 'go') : undefined,
    '/usr/local/go/bin/go',
  ];
  return candidates.find(
    (go) => go && isExecutable(go) && spawnSync(go, ['version'], { env, stdio: 'ignore' }).status === 0,
  );
}

/** Builds the pinned CLI into the cache with `go install`; minutes the first time, so it reports progress. */
export async function buildTemporalCli(
  go: string,
  log: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const gobin = temporalCliCacheDir(env);
  fs.mkdirSync(gobin, { recursive: true });
  const target = `${MODULE}@${TEMPORAL_CLI_VERSION}`;
  log(
    `Building the Temporal CLI ${TEMPORAL_CLI_VERSION} into ${gobin} (${go} install ${target}); the first build takes a few minutes`,
  );
  const started = Date.now();
  const ticker = setInterval(() => {
    log(`  still building the Temporal CLI (${Math.round((Date.now() - started) / 1000)} s)`);
  }, 20_000);
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(go, ['install', target], {
        env: { ...env, GOBIN: gobin, GOFLAGS: [env.GOFLAGS, '-buildvcs=false'].filter(Boolean).join(' ') },
        stdio: ['ignore', 'inherit', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        const text = chunk.toString();
        stderr = (stderr + text).slice(-8_000);
        for (const line of text.split('\n')) if (line.trim()) log(`  ${line.trim()}`);
      });
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolve() : reject(new Error(`go install ${target} failed (exit ${code}): ${stderr}`)),
      );
    });
  } finally {
    clearInterval(ticker);
  }
  log(`Temporal CLI built in ${Math.round((Date.now() - started) / 1000)} s`);
  return path.join(gobin, 'temporal');
}
