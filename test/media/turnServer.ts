import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eventually } from '../support/eventually';
import { freePort } from '../support/freePort';

export interface TurnServer {
  port: number;
  /** What coturn logged: each allocation names the credential's username. */
  log(): string;
  stop(): Promise<void>;
}

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => socket.end(() => resolve(true)));
    socket.once('error', () => resolve(false));
  });

/** The address Janus's candidates are on (the machine's own, else loopback): the relay sends to it from it. */
function relayAddress(): string {
  const own = Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal);
  return own?.address ?? '127.0.0.1';
}

/**
 * Debian's coturn on loopback, taking the TURN REST API's credentials under `secret` (`use-auth-secret`),
 * as the compose file's coturn does; loopback peers allowed, since the test's Janus is on loopback.
 */
export async function startTurnServer(secret: string): Promise<TurnServer> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coturn-'));
  const logFile = path.join(dir, 'turn.log');
  const child = spawn(
    'turnserver',
    [
      '-n',
      '--listening-ip=127.0.0.1',
      `--relay-ip=${relayAddress()}`,
      `--listening-port=${port}`,
      '--use-auth-secret',
      `--static-auth-secret=${secret}`,
      '--realm=notarization.test',
      '--no-tls',
      '--no-dtls',
      '--no-cli',
      '--allow-loopback-peers',
      '--fingerprint',
      '--verbose',
      '--simple-log',
      `--log-file=${logFile}`,
      `--pidfile=${path.join(dir, 'turn.pid')}`,
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await eventually(() => canConnect(port), Boolean, `coturn listening on ${port}`, { timeoutMs: 15_000 });
  const log = () =>
    fs
      .readdirSync(dir)
      .filter((f) => f.startsWith('turn') && f.endsWith('.log'))
      .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
      .join('\n');
  return {
    port,
    log,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
