import { API_PREFIX } from '../publicPaths';
import { UrlSigner } from '../crypto/urlSigner';

/**
 * Download links that need no key: the document id and expiry, signed. Anyone holding the link may
 * download until it expires; changing any part of it invalidates the signature.
 */
export class DownloadUrls {
  private readonly signer: UrlSigner;

  constructor(
    secret: Buffer,
    private readonly baseUrl: string,
    private readonly ttlSeconds: number,
  ) {
    this.signer = new UrlSigner(secret, '');
  }

  create(documentId: string, now = Date.now()): { url: string; expiresAt: Date } {
    const { expires, signature } = this.signer.sign(documentId, this.ttlSeconds, now);
    const url = new URL(
      `${this.baseUrl}${API_PREFIX}/signed_documents/${encodeURIComponent(documentId)}/download`,
    );
    url.searchParams.set('expires', String(expires));
    url.searchParams.set('signature', signature);
    return { url: url.toString(), expiresAt: new Date(expires * 1000) };
  }

  isValid(documentId: string, expires: string, signature: string, now = Date.now()): boolean {
    return this.signer.isValid(documentId, expires, signature, now);
  }
}
