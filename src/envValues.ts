import ms from 'ms';
import { ConfigError } from './configError';

/** The environment a configuration is read from (process.env, or a test's). */
export type Env = Record<string, string | undefined>;

export function optional(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw ? raw : undefined;
}

export function integer(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new ConfigError(`${name} must be a non-negative integer`);
  return value;
}

export function duration(name: string, raw: string): number {
  const value = ms(raw.trim() as ms.StringValue);
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new ConfigError(`${name}: "${raw}" is not a duration such as 500ms, 5s, 5m or 2h`);
  }
  return value;
}

export function durations(env: Env, name: string, fallback: string): number[] {
  return (optional(env, name) ?? fallback).split(',').map((part) => duration(name, part));
}

export function url(env: Env, name: string, fallback: string): string {
  const raw = optional(env, name) ?? fallback;
  try {
    return new URL(raw).toString().replace(/\/$/, '');
  } catch {
    throw new ConfigError(`${name} must be an absolute URL`);
  }
}

/** `host:port` (an IPv6 host in brackets), as a server binds it; undefined when unset. */
export function bindAddress(env: Env, name: string): string | undefined {
  const raw = optional(env, name);
  if (raw === undefined) return undefined;
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(raw);
  if (!match || Number(match[2]) < 1 || Number(match[2]) > 65_535)
    throw new ConfigError(`${name} must be host:port, e.g. 0.0.0.0:9464`);
  return raw;
}
