import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

interface Container {
  Service: string;
  Name: string;
  State: string;
  Status: string;
  Health: string;
  Publishers: Array<{ URL: string; TargetPort: number; PublishedPort: number; Protocol: string }>;
}

/**
 * docker-compose.yml as production runs it, with the override file that names locally built images and the
 * settings of one verification run: `docker compose` under one project name, from the repository's root.
 */
export class ComposeStack {
  constructor(
    private readonly root: string,
    private readonly files: { override: string; env: string },
    private readonly profiles: string[],
    readonly project = 'notarization-verify',
  ) {}

  private args(rest: string[]): string[] {
    return [
      'compose',
      '--project-name',
      this.project,
      '--project-directory',
      this.root,
      '-f',
      `${this.root}/docker-compose.yml`,
      '-f',
      this.files.override,
      '--env-file',
      this.files.env,
      ...this.profiles.flatMap((p) => ['--profile', p]),
      ...rest,
    ];
  }

  /** Runs a compose command; its output is returned, its failure thrown with compose's own words. */
  async compose(rest: string[], timeoutMs = 30 * 60_000): Promise<string> {
    const { stdout } = await run('docker', this.args(rest), { timeout: timeoutMs, maxBuffer: 64 << 20 });
    return stdout;
  }

  composeSync(rest: string[]): string {
    return execFileSync('docker', this.args(rest), { stdio: ['ignore', 'pipe', 'inherit'] }).toString();
  }

  async containers(): Promise<Container[]> {
    const out = await this.compose(['ps', '--all', '--format', 'json']);
    // Compose 2.2x prints one JSON object a line.
    return out
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as Container);
  }

  /** The host ports a service's containers publish for `target`, one per container. */
  async published(service: string, target: number): Promise<number[]> {
    return (await this.containers())
      .filter((c) => c.Service === service)
      .flatMap((c) => c.Publishers.filter((p) => p.TargetPort === target && p.PublishedPort > 0))
      .map((p) => p.PublishedPort)
      .filter((port, i, all) => all.indexOf(port) === i);
  }

  /** Waits until every running service with a health check is healthy and the one-shot jobs have exited 0. */
  async waitHealthy(timeoutMs: number, log: (line: string) => void): Promise<Container[]> {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    for (;;) {
      const all = await this.containers();
      const waiting = all.filter(
        (c) =>
          (c.State === 'running' && c.Health && c.Health !== 'healthy') ||
          c.State === 'created' ||
          c.State === 'restarting',
      );
      const failed = all.filter((c) => c.State === 'exited' && !/Exited \(0\)/.test(c.Status));
      if (failed.length)
        throw new Error(`failed: ${failed.map((c) => `${c.Name} (${c.Status})`).join(', ')}`);
      if (!waiting.length && all.length) return all;
      const now = waiting.map((c) => `${c.Service}:${c.Health || c.State}`).join(' ');
      if (now !== last) log(`waiting for ${now}`);
      last = now;
      if (Date.now() > deadline) throw new Error(`not healthy after ${timeoutMs / 1000} s: ${now}`);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }

  down(): Promise<string> {
    return this.compose(['down', '--volumes', '--remove-orphans', '--timeout', '20']);
  }
}
