import crypto from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM for JSON kept at rest: `context` is authenticated but not stored, so a sealed value only
 * opens where it was sealed (e.g. under the same row key), and any change to it fails to open.
 */
export class JsonSealer {
  private readonly key: Buffer;

  constructor(secret: Buffer) {
    // Any length of secret in, exactly 32 bytes of key out.
    this.key = crypto.createHash('sha256').update(secret).digest();
  }

  seal(value: unknown, context: string): Buffer {
    const iv = crypto.randomBytes(IV_BYTES);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(JSON.stringify(value ?? null), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  open(sealed: Buffer, context: string): unknown {
    const decipher = crypto
      .createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, IV_BYTES))
      .setAAD(Buffer.from(context));
    decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const text = Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    return JSON.parse(text.toString('utf8'));
  }
}

/** The configured secret, else one derived from the JWT secret (so production needs no extra setting). */
export function replaySecret(configured: string | undefined, jwtSecret: Uint8Array): Buffer {
  if (configured) return Buffer.from(configured);
  return crypto.createHmac('sha256', Buffer.from(jwtSecret)).update('idempotency-replays').digest();
}
