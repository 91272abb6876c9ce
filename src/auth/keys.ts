import crypto from 'node:crypto';
import type { KeyKind } from './keyStore';

/**
 * Keys look like `nsk_<prefix>_<secret>` (API) or `nvk_<prefix>_<secret>` (vendor). The prefix is
 * public and indexed to find the row; only SHA-256 of the 256-bit secret is stored, which is enough
 * for a random secret and keeps authentication to one indexed lookup and one hash.
 */
const TAGS: Record<KeyKind, string> = { api: 'nsk', vendor: 'nvk' };
const KEY_PATTERN = /^(nsk|nvk)_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export interface GeneratedKey {
  key: string;
  prefix: string;
  secretHash: Buffer;
}

export interface ParsedKey {
  kind: KeyKind;
  prefix: string;
  secret: string;
}

export function sha256(value: string): Buffer {
  return crypto.createHash('sha256').update(value).digest();
}

export function generateKey(kind: KeyKind): GeneratedKey {
  const prefix = crypto.randomBytes(8).toString('hex');
  const secret = crypto.randomBytes(32).toString('base64url');
  return { key: `${TAGS[kind]}_${prefix}_${secret}`, prefix, secretHash: sha256(secret) };
}

export function parseKey(raw: string): ParsedKey | null {
  const match = KEY_PATTERN.exec(raw);
  if (!match) return null;
  return { kind: match[1] === 'nsk' ? 'api' : 'vendor', prefix: match[2], secret: match[3] };
}

export function secretMatches(secret: string, storedHash: Buffer): boolean {
  const candidate = sha256(secret);
  return candidate.length === storedHash.length && crypto.timingSafeEqual(candidate, storedHash);
}

/** Opaque random token (refresh tokens, signing links): the value handed out and the hash kept. */
export function generateOpaqueToken(): { token: string; hash: Buffer } {
  const token = crypto.randomBytes(32).toString('base64url');
  return { token, hash: sha256(token) };
}

/** Whether a presented secret equals a configured one, in time that does not depend on where they differ. */
export function sameSecret(presented: string, expected: string): boolean {
  return secretMatches(presented, sha256(expected));
}
