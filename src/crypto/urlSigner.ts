import crypto from 'node:crypto';

/**
 * Links that carry their own credential: a subject and an expiry, signed with HMAC-SHA256 under one
 * purpose, so a signature made for one kind of link is worthless for another.
 */
export class UrlSigner {
  constructor(
    private readonly secret: Buffer,
    private readonly purpose: string,
  ) {}

  signature(subject: string, expires: number): string {
    return crypto
      .createHmac('sha256', this.secret)
      .update(`${this.purpose}${subject}.${expires}`)
      .digest('base64url');
  }

  /** `expires` is in seconds since the epoch. */
  sign(subject: string, ttlSeconds: number, now = Date.now()): { expires: number; signature: string } {
    const expires = Math.floor(now / 1000) + ttlSeconds;
    return { expires, signature: this.signature(subject, expires) };
  }

  isValid(subject: string, expires: string, signature: string, now = Date.now()): boolean {
    if (!/^\d{1,12}$/.test(expires) || Number(expires) * 1000 <= now) return false;
    const expected = Buffer.from(this.signature(subject, Number(expires)));
    const given = Buffer.from(signature);
    return expected.length === given.length && crypto.timingSafeEqual(expected, given);
  }
}

/** The secret of self-signed links: DOWNLOAD_URL_SECRET, else one derived from the JWT secret (never it). */
export function linkSecret(configured: string | undefined, jwtSecret: Uint8Array): Buffer {
  if (configured) return Buffer.from(configured);
  return crypto.createHmac('sha256', Buffer.from(jwtSecret)).update('signed-document-download-urls').digest();
}
