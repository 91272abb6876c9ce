import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config';
import { loadDigitalId } from '../../src/notarizedPdf/digitalId';
import { freePort } from '../../test/support/freePort';
import { LOG_ROTATION } from './logRotation';
import { turnCertificate } from './turnTls';

/** The address browsers and containers both reach this host at: its default route's source address. */
export function hostAddress(): string {
  const route = execFileSync('ip', ['-4', 'route', 'get', '1.1.1.1']).toString();
  const src = /\bsrc (\S+)/.exec(route)?.[1];
  if (!src) throw new Error(`no source address in: ${route}`);
  return src;
}

/** One run's settings: fresh secrets, the host's ports, the locally made base images, the signing identity. */
export async function envFile(scratch: string, hostIp: string) {
  const secret = () => crypto.randomBytes(24).toString('hex');
  const identity = loadDigitalId(loadConfig({ DATA_DIR: scratch, NODE_ENV: 'development' }));
  const first = await freePort();
  const apiPorts = [first, first + 1];
  const settings: Record<string, string> = {
    NODE_IMAGE: 'local/node:20-bookworm',
    DEBIAN_IMAGE: 'local/debian:bookworm',
    POSTGRES_PASSWORD: secret(),
    JWT_SECRET: secret(),
    API_PORTS: `${apiPorts[0]}-${apiPorts[1]}`,
    PUBLIC_BASE_URL: `http://127.0.0.1:${apiPorts[0]}`,
    TEMPORAL_UI_PORT: String(await freePort()),
    ALLOW_SANDBOX_IDENTITY: 'true',
    MEDIA_ADMIN_KEY: secret(),
    MEDIA_EVENTS_SECRET: secret(),
    MEDIA_PUBLIC_IP: hostIp,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    S3_BUCKET: 'notarization-recordings',
    S3_ENDPOINT: 'http://s3:7070',
    AWS_ACCESS_KEY_ID: `verify${secret().slice(0, 8)}`,
    AWS_SECRET_ACCESS_KEY: secret(),
    TURN_SECRET: secret(),
    TURN_URLS: `turn:${hostIp}:3478?transport=udp,turn:${hostIp}:3478?transport=tcp`,
    TURN_EXTERNAL_IP: hostIp,
    TURN_TLS_DIR: path.join(scratch, 'turn-tls'),
    TURN_TLS_HOST_PORT: String(await freePort()),
    SIGNING_P12_FILE: path.join(scratch, 'signing', 'signer.p12'),
    SIGNING_P12_PASSPHRASE: identity.passphrase,
    LOG_MAX_SIZE: LOG_ROTATION.maxSize,
    LOG_MAX_FILES: String(LOG_ROTATION.maxFiles),
  };
  turnCertificate(settings.TURN_TLS_DIR, hostIp);
  const file = path.join(scratch, '.env');
  fs.writeFileSync(
    file,
    Object.entries(settings)
      .map(([k, v]) => `${k}=${v}\n`)
      .join(''),
    { mode: 0o600 },
  );
  return {
    file,
    apiPorts,
    turn: { secret: settings.TURN_SECRET, tlsPort: Number(settings.TURN_TLS_HOST_PORT) },
  };
}
