import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

type Log = (line: string) => void;

const works = (command: string, args: string[]) => {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

const apt = (args: string[]) =>
  execFileSync('apt-get', args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });

/**
 * Compose v2 is Debian trixie's (2.26); this machine may be bookworm, whose docker-compose is the old Python
 * one. Trixie is pinned below bookworm: the install takes docker-compose and the Docker packages it recommends
 * (docker.io 26.1, docker-cli, buildx) from trixie, and nothing later comes from it unasked.
 */
function installComposeV2(log: Log): void {
  log('installing Compose v2 (Debian trixie’s docker-compose, with the Docker packages it recommends)');
  fs.writeFileSync('/etc/apt/sources.list.d/trixie.list', 'deb http://deb.debian.org/debian trixie main\n');
  fs.writeFileSync(
    '/etc/apt/preferences.d/trixie-low',
    'Package: *\nPin: release n=trixie\nPin-Priority: 100\n',
  );
  apt(['update', '-qq']);
  apt(['install', '-y', '-qq', '-t', 'trixie', 'docker-compose']);
}

/** Debian's docker.io and mmdebstrap installed, dockerd running, Compose v2: as root on a fresh machine. */
export async function ensureEngine(log: Log, logDir: string): Promise<void> {
  if (process.getuid?.() !== 0) throw new Error('verify:compose runs as root: it installs and starts Docker');
  if (!works('dockerd', ['--version']) || !works('mmdebstrap', ['--version'])) {
    log('installing Docker (Debian’s docker.io) and mmdebstrap');
    apt(['update', '-qq']);
    apt(['install', '-y', '-qq', 'docker.io', 'mmdebstrap', 'uidmap']);
  }
  if (!works('docker', ['compose', 'version'])) installComposeV2(log);
  if (!works('docker', ['info'])) {
    log('starting dockerd');
    const out = fs.openSync(path.join(logDir, 'dockerd.log'), 'a');
    spawn('dockerd', [], { detached: true, stdio: ['ignore', out, out] }).unref();
    const deadline = Date.now() + 60_000;
    while (!works('docker', ['info'])) {
      if (Date.now() > deadline) throw new Error(`dockerd did not start: see ${logDir}/dockerd.log`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  log(
    `engine: ${execFileSync('docker', ['version', '-f', 'Docker {{.Server.Version}}']).toString().trim()}, ${execFileSync('docker', ['compose', 'version', '--short']).toString().trim()}`,
  );
}

/**
 * The Debian and Node base images made from Debian's packages (deploy/base-images.sh, which makes only what
 * is missing or not at its versions, saying so on stderr); returns what it names.
 */
export function ensureBaseImages(root: string): string {
  return execFileSync('bash', [path.join(root, 'deploy', 'base-images.sh')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
    .toString()
    .trim()
    .split('\n')
    .join(', ');
}
