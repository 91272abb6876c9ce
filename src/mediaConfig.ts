import path from 'node:path';
import ms from 'ms';
import { ConfigError } from './configError';

/** Where the media server is and how the service talks to it; docs/configuration.md lists each variable. */
export interface MediaConfig {
  /** Janus's HTTP API (…/janus); unset: the embedded Janus on `embeddedPort`. */
  serverUrl?: string;
  embeddedPort: number;
  /** Its RTP/ICE port range, as `first-last`. */
  rtpPorts: string;
  /** The address browsers reach the embedded Janus at, when it is not one of the host's own (NAT). */
  publicIp?: string;
  /** Janus's videoroom `admin_key`: only the service's activities create and destroy rooms. */
  adminKey?: string;
  /** Basic-auth password Janus's event handler posts its events with. */
  eventsSecret?: string;
  /** Where Janus posts its events: this service's /internal/media/events. */
  eventsUrl: string;
  /** Where Janus writes the rooms' recordings; the worker reads them from the same path. */
  recordingsDir: string;
  /** The ICE servers browsers are given (STUN), as JSON; none on loopback. Never a TURN credential. */
  iceServers: RTCIceServerConfig[];
  /** A TURN relay (coturn's REST API scheme): each pass gets its own short-lived credential. */
  turn?: TurnConfig;
  /** `relay`: pages reach the media server through TURN only (hides their addresses; needs TURN). */
  iceTransportPolicy: 'all' | 'relay';
  tokenTtlSeconds: number;
  /** How long a recording is kept (RECORDING_RETENTION, at least its default of 10 years unless set). */
  recordingRetention: CalendarSpan;
}

/** A span added on the calendar in UTC: 10 years after an act is the same date ten years on, leap days or not. */
export interface CalendarSpan {
  months: number;
  seconds: number;
}

export interface TurnConfig {
  urls: string[];
  /** coturn's `static-auth-secret`. */
  secret: string;
  ttlSeconds: number;
}

export interface RTCIceServerConfig {
  urls: string | string[];
  username?: string;
  credential?: string;
}

type Env = Record<string, string | undefined>;

/** Janus's HTTP API: the one configured, else the embedded one's. */
export const mediaServerUrl = (media: MediaConfig) =>
  media.serverUrl ?? `http://127.0.0.1:${media.embeddedPort}/janus`;

const value = (env: Env, name: string) => env[name]?.trim() || undefined;

function iceServers(raw: string | undefined): RTCIceServerConfig[] {
  if (!raw) return [];
  const parsed: unknown = JSON.parse(raw);
  const valid =
    Array.isArray(parsed) &&
    parsed.every((s) => s && (typeof s.urls === 'string' || (Array.isArray(s.urls) && s.urls.length > 0)));
  if (!valid)
    throw new ConfigError('MEDIA_ICE_SERVERS must be a JSON array of {urls, username?, credential?}');
  // Every page would receive it: anyone reading one could relay through the TURN server for ever.
  if (parsed.some((s: RTCIceServerConfig) => s.credential !== undefined))
    throw new ConfigError(
      'MEDIA_ICE_SERVERS must not carry a credential: set TURN_URLS and TURN_SECRET for per-participant TURN credentials',
    );
  return parsed as RTCIceServerConfig[];
}

/** TURN_URLS (comma-separated turn:/turns: URLs) with TURN_SECRET; neither, or both. */
function turnConfig(env: Env): TurnConfig | undefined {
  const urls = value(env, 'TURN_URLS')
    ?.split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  const secret = value(env, 'TURN_SECRET');
  if (!urls?.length && !secret) return undefined;
  if (!urls?.length || !secret) throw new ConfigError('TURN_URLS and TURN_SECRET are set together');
  if (!urls.every((u) => /^turns?:[^\s]+$/.test(u)))
    throw new ConfigError(
      'TURN_URLS must be turn: or turns: URLs, e.g. turn:turn.example.com:3478?transport=udp',
    );
  const ttlSeconds = duration('TURN_CREDENTIAL_TTL', value(env, 'TURN_CREDENTIAL_TTL') ?? '2h') / 1000;
  return { urls, secret, ttlSeconds };
}

function duration(name: string, raw: string): number {
  const parsed = ms(raw as ms.StringValue);
  if (typeof parsed !== 'number' || !(parsed > 0))
    throw new ConfigError(`${name}: "${raw}" is not a duration`);
  return parsed;
}

/** Years and months count on the calendar (`ms` would make a year 365.25 days); anything else as `ms` reads it. */
function calendarSpan(name: string, raw: string): CalendarSpan {
  const calendar = /^(\d+)\s*(y|yrs?|years?|mo|months?)$/i.exec(raw.trim());
  if (!calendar) return { months: 0, seconds: duration(name, raw) / 1000 };
  const count = Number(calendar[1]);
  if (!(count > 0)) throw new ConfigError(`${name}: "${raw}" is not a duration`);
  return { months: /^y/i.test(calendar[2]) ? count * 12 : count, seconds: 0 };
}

export function mediaConfig(env: Env, dataDir: string, apiPort: number): MediaConfig {
  const rtpPorts = value(env, 'MEDIA_RTP_PORTS') ?? '20000-40000';
  if (!/^\d{2,5}-\d{2,5}$/.test(rtpPorts))
    throw new ConfigError('MEDIA_RTP_PORTS must be a range such as 20000-40000');
  const turn = turnConfig(env);
  const policy = value(env, 'MEDIA_ICE_TRANSPORT_POLICY') ?? 'all';
  if (policy !== 'all' && policy !== 'relay')
    throw new ConfigError('MEDIA_ICE_TRANSPORT_POLICY must be all or relay');
  if (policy === 'relay' && !turn)
    throw new ConfigError('MEDIA_ICE_TRANSPORT_POLICY=relay needs TURN_URLS and TURN_SECRET');
  return {
    serverUrl: value(env, 'MEDIA_SERVER_URL')?.replace(/\/$/, ''),
    embeddedPort: Number(value(env, 'EMBEDDED_MEDIA_PORT') ?? 8188),
    rtpPorts,
    publicIp: value(env, 'MEDIA_PUBLIC_IP'),
    adminKey: value(env, 'MEDIA_ADMIN_KEY'),
    eventsSecret: value(env, 'MEDIA_EVENTS_SECRET'),
    eventsUrl: value(env, 'MEDIA_EVENTS_URL') ?? `http://127.0.0.1:${apiPort}/internal/media/events`,
    recordingsDir: path.resolve(
      value(env, 'MEDIA_RECORDINGS_DIR') ?? path.join(dataDir, 'media', 'recordings'),
    ),
    iceServers: iceServers(value(env, 'MEDIA_ICE_SERVERS')),
    turn,
    iceTransportPolicy: policy,
    tokenTtlSeconds: duration('MEDIA_TOKEN_TTL', value(env, 'MEDIA_TOKEN_TTL') ?? '10m') / 1000,
    recordingRetention: calendarSpan('RECORDING_RETENTION', value(env, 'RECORDING_RETENTION') ?? '10y'),
  };
}
