import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { BackingLog } from '../runtime';
import { keepRunning } from './keepRunning';
import { pidFileLauncher } from './pidFileLauncher';
import type { MediaConfig } from '../../src/mediaConfig';

/** Where Debian's `janus` package (and a source build) puts its modules. */
const MODULE_ROOTS = [
  '/usr/lib/x86_64-linux-gnu/janus',
  '/usr/lib/aarch64-linux-gnu/janus',
  '/usr/local/lib/janus',
  '/opt/janus/lib/janus',
];
/** The only modules loaded: the videoroom (SFU with server-side recording), HTTP, and the event handler. */
const MODULES = {
  plugins: 'libjanus_videoroom.so',
  transports: 'libjanus_http.so',
  events: 'libjanus_sampleevh.so',
} as const;

export interface EmbeddedJanus {
  serverUrl: string;
  adminKey: string;
  eventsSecret: string;
  /** Stops and starts it again on the same port, as a crash and restart would. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** The settings that point an API or a worker started elsewhere at this embedded Janus. */
export function mediaSettings(janus: EmbeddedJanus | undefined): Record<string, string> {
  if (!janus) return {};
  return {
    MEDIA_SERVER_URL: janus.serverUrl,
    MEDIA_ADMIN_KEY: janus.adminKey,
    MEDIA_EVENTS_SECRET: janus.eventsSecret,
  };
}

export function janusBinary(): string | undefined {
  const fromPath = (process.env.PATH ?? '').split(':').map((dir) => path.join(dir, 'janus'));
  return [...fromPath, '/usr/bin/janus', '/opt/janus/bin/janus'].find((file) => fs.existsSync(file));
}

function moduleRoot(): string | undefined {
  return MODULE_ROOTS.find((root) => fs.existsSync(path.join(root, 'plugins', MODULES.plugins)));
}

/** Secrets kept beside its configuration, so a restarted `npm start` talks to the same rooms' rules. */
function secretsOf(dir: string): { adminKey: string; eventsSecret: string } {
  const file = path.join(dir, 'secrets.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8'));
  const secrets = {
    adminKey: crypto.randomBytes(24).toString('base64url'),
    eventsSecret: crypto.randomBytes(24).toString('base64url'),
  };
  fs.writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
  return secrets;
}

function writeConfiguration(
  dir: string,
  root: string,
  media: MediaConfig,
  port: number,
  secrets: { adminKey: string; eventsSecret: string },
) {
  const conf = path.join(dir, 'conf');
  for (const kind of Object.keys(MODULES) as Array<keyof typeof MODULES>) {
    const folder = path.join(dir, kind);
    fs.mkdirSync(folder, { recursive: true });
    const link = path.join(folder, MODULES[kind]);
    fs.rmSync(link, { force: true });
    fs.symlinkSync(path.join(root, kind, MODULES[kind]), link);
  }
  fs.mkdirSync(conf, { recursive: true });
  const quoted = (value: string) => JSON.stringify(value);
  const files: Record<string, string> = {
    'janus.jcfg': `general: {
  configs_folder = ${quoted(conf)}
  plugins_folder = ${quoted(path.join(dir, 'plugins'))}
  transports_folder = ${quoted(path.join(dir, 'transports'))}
  events_folder = ${quoted(path.join(dir, 'events'))}
  recordings_tmp_ext = "tmp"
  debug_level = 3
  admin_secret = ${quoted(crypto.randomBytes(24).toString('base64url'))}
  session_timeout = 60
  server_name = "notarization-media"
  protected_folders = ["/bin", "/boot", "/dev", "/etc", "/proc", "/sys", "/usr"]
}
media: { rtp_port_range = ${quoted(media.rtpPorts)} no_media_timer = 2 }
nat: {
  nice_debug = false
  ice_ignore_list = "vmnet"
${media.publicIp ? `  nat_1_1_mapping = ${quoted(media.publicIp)}\n  keep_private_host = true\n` : ''}}
events: { broadcast = true stats_period = 0 }
`,
    'janus.plugin.videoroom.jcfg': `general: { admin_key = ${quoted(secrets.adminKey)} lock_rtp_forward = true string_ids = true events = true }\n`,
    'janus.transport.http.jcfg': `general: { json = "compact" base_path = "/janus" http = true port = ${port} ip = "127.0.0.1" https = false }
admin: { admin_http = false }
cors: { }
`,
    'janus.eventhandler.sampleevh.jcfg': `general: {
  enabled = true
  events = "plugins,core,media"
  grouping = true
  json = "compact"
  backend = ${quoted(media.eventsUrl)}
  backend_user = "janus"
  backend_pwd = ${quoted(secrets.eventsSecret)}
  max_retransmissions = 5
  retransmissions_backoff = 200
}
`,
  };
  for (const [name, text] of Object.entries(files))
    fs.writeFileSync(path.join(conf, name), text, { mode: 0o600 });
  return conf;
}

async function waitUntilServing(url: string, exited: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited()) throw new Error('Janus exited during start-up');
    const answer = await fetch(`${url}/info`, { signal: AbortSignal.timeout(1_000) }).catch(() => undefined);
    if (answer?.ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Janus at ${url} not ready after ${timeoutMs} ms`);
}

/**
 * Janus, the media server of live sessions, for `npm start` and the tests: configured under
 * DATA_DIR/janus with only what the service uses, its HTTP API on loopback (browsers reach it through
 * the API's signaling proxy), its events posted to the API, started again if it crashes. Undefined when
 * Janus is not installed.
 */
export async function startEmbeddedJanus(opts: {
  dataDir: string;
  media: MediaConfig;
  log: BackingLog;
}): Promise<EmbeddedJanus | undefined> {
  const binary = janusBinary();
  const root = moduleRoot();
  if (!binary || !root) {
    opts.log(
      'Janus is not installed (apt-get install janus janus-tools ffmpeg): live sessions wait for a media server',
    );
    return undefined;
  }
  const dir = path.join(opts.dataDir, 'janus');
  fs.mkdirSync(dir, { recursive: true });
  fs.mkdirSync(opts.media.recordingsDir, { recursive: true });
  const secrets = secretsOf(dir);
  const port = opts.media.embeddedPort;
  const conf = writeConfiguration(dir, root, opts.media, port, secrets);
  const serverUrl = `http://127.0.0.1:${port}/janus`;
  const launcher = pidFileLauncher({
    command: binary,
    args: [
      '--configs-folder',
      conf,
      '--config',
      path.join(conf, 'janus.jcfg'),
      '--disable-colors',
      '--event-handlers',
    ],
    logFile: path.join(dir, 'janus.log'),
    pidFile: path.join(dir, 'janus.pid'),
    orphan: { command: 'janus', what: 'The embedded Janus' },
    ports: [{ port, setting: 'EMBEDDED_MEDIA_PORT' }],
    serving: (exited) => waitUntilServing(serverUrl, exited, 20_000),
    haltWithinMs: 5_000,
  });
  const janus = await keepRunning({ name: 'The embedded Janus', ...launcher, log: opts.log });
  return { serverUrl, ...secrets, restart: janus.restart, stop: janus.stop };
}
