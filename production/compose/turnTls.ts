import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A certificate for coturn's TURN over TLS, self-signed for the host's address (a real one comes from a CA),
 * readable by the image's unprivileged turnserver user.
 */
export function turnCertificate(dir: string, hostIp: string): void {
  fs.mkdirSync(dir, { recursive: true });
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${hostIp}`,
      '-addext',
      `subjectAltName=IP:${hostIp}`,
      '-keyout',
      path.join(dir, 'privkey.pem'),
      '-out',
      path.join(dir, 'fullchain.pem'),
    ],
    { stdio: 'ignore' },
  );
  for (const file of ['privkey.pem', 'fullchain.pem']) fs.chmodSync(path.join(dir, file), 0o644);
}

/**
 * One allocation through coturn over TLS (TCP; `-S` alone would be DTLS) on its published port, with a credential minted as the API mints
 * them (the TURN REST scheme: `expiry:identity`, HMAC-SHA1 under the shared secret), and data relayed back.
 */
export function allocateOverTls(hostIp: string, port: number, secret: string): string {
  const username = `${Math.floor(Date.now() / 1000) + 600}:verify-compose`;
  const credential = crypto.createHmac('sha1', secret).update(username).digest('base64');
  const run = spawnSync(
    'turnutils_uclient',
    ['-t', '-S', '-p', String(port), '-u', username, '-w', credential, '-y', '-n', '2', '-m', '1', hostIp],
    { timeout: 30_000 },
  );
  const out = `${run.stdout}${run.stderr}`;
  const received = /tot_recv_msgs=(\d+)/.exec(out.split('\n').reverse().join('\n'))?.[1];
  if (run.status !== 0 || !received || received === '0')
    throw new Error(
      `no TURN allocation over TLS on ${hostIp}:${port}: ${out.trim().split('\n').slice(-3).join(' / ')}`,
    );
  return `${received} messages relayed back`;
}
