import { API_PREFIX } from '../publicPaths';
import crypto from 'node:crypto';

/**
 * Download links that need no key: the document id and expiry, signed with HMAC-SHA256. Anyone holding
 * the link may download until it expires; changing any part of it invalidates the signature.
 */
export class DownloadUrls {
  constructor(
    private readonly secret: Buffer,
    private readonly baseUrl: string,
    private readonly ttlSeconds: number,
  ) {}

  private signature(documentId: string, expires: number): string {
    return crypto.createHmac('sha256', this.secret).update(`${documentId}.${expires}`).digest('base64url');
  }

  create(documentId: string, now = Date.now()): { url: string; expiresAt: Date } {
    const expires = Math.floor(now / 1000) + this.ttlSeconds;
    const url = new URL(
      `${this.baseUrl}${API_PREFIX}/signed_documents/${encodeURIComponent(documentId)}/download`,
    );
    url.searchParams.set('expires', String(expires));
    url.searchParams.set('signature', this.signature(documentId, expires));
    return { url: url.toString(), expiresAt: new Date(expires * 1000) };
  }

  isValid(documentId: string, expires: string, signature: string, now = Date.now()): boolean {
    if (!/^\d{1,12}$/.test(expires) || Number(expires) * 1000 <= now) return false;
    const expected = Buffer.from(this.signature(documentId, Number(expires)));
    const given = Buffer.from(signature);
    return expected.length === given.length && crypto.timingSafeEqual(expected, given);
  }
}

/** The URL secret: DOWNLOAD_URL_SECRET, else one derived from the JWT secret (never the JWT secret itself). */
export function downloadSecret(configured: string | undefined, jwtSecret: Uint8Array): Buffer {
  if (configured) return Buffer.from(configured);
  return crypto.createHmac('sha256', Buffer.from(jwtSecret)).update('signed-document-download-urls').digest();
}
