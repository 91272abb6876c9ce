import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { spawnServer } from '../server/embedded/childProcess';
import { freePort } from '../test/support/freePort';
import { waitUntil } from './temporalServer';

const START_SCRIPT = path.join(__dirname, '..', 'deploy', 'janus', 'start.sh');

/**
 * Janus as docker-compose runs it: the image's own entrypoint (deploy/janus/start.sh) writes its
 * configuration from the same settings and runs it, here without Docker. Its events go to `eventsUrl`.
 */
export async function startComposeJanus(
  dir: string,
  eventsUrl: string,
  log: (line: string) => void,
  rtpPorts = '30000-30500',
) {
  const port = await freePort();
  const settings = {
    MEDIA_ADMIN_KEY: crypto.randomBytes(24).toString('hex'),
    MEDIA_EVENTS_SECRET: crypto.randomBytes(24).toString('hex'),
    MEDIA_RECORDINGS_DIR: path.join(dir, 'recordings'),
  };
  fs.mkdirSync(dir, { recursive: true });
  const server = spawnServer('sh', [START_SCRIPT], path.join(dir, 'janus.log'), {
    exitSignal: 'SIGTERM',
    env: {
      ...process.env,
      ...settings,
      MEDIA_EVENTS_URL: eventsUrl,
      MEDIA_RTP_PORTS: rtpPorts,
      JANUS_CONF_DIR: path.join(dir, 'conf'),
      JANUS_RECORDINGS_DIR: settings.MEDIA_RECORDINGS_DIR,
      JANUS_HTTP_PORT: String(port),
    },
  });
  const serverUrl = `http://127.0.0.1:${port}/janus`;
  await waitUntil(
    'Janus (deploy/janus/start.sh)',
    async () => {
      if (server.exited()) throw new Error(`Janus exited: see ${path.join(dir, 'janus.log')}`);
      return (await fetch(`${serverUrl}/info`).catch(() => undefined))?.ok === true;
    },
    30_000,
  );
  log(`Janus ${serverUrl} from deploy/janus/start.sh, recording into ${settings.MEDIA_RECORDINGS_DIR}`);
  return {
    settings: { ...settings, MEDIA_SERVER_URL: serverUrl },
    stop: () => server.stop('SIGTERM', 5_000),
  };
}
