import crypto from 'node:crypto';
import type { Next } from 'koa';
import { malformed, tooLarge, unsupportedMedia } from '../../domain/errors';
import type { AppContext } from '../context';
import { lingerThenClose } from './jsonBody';

/** A file body as a route sees it: never the bytes, only what identifies them. */
export interface HashedBody {
  sha256: string;
  sizeBytes: number;
  /** The first bytes, to tell what kind of file it is. */
  head: Buffer;
}

const HEAD_BYTES = 1024;

/**
 * Reads a file body of `contentType` as it arrives, hashing it and keeping its first bytes: the file is
 * never held whole, whatever its size under `limitBytes` (over it: 413 from Content-Length, or mid-way).
 */
export function hashedBody(contentType: string, limitBytes: number) {
  return async (ctx: AppContext, next: Next) => {
    if (!ctx.is(contentType)) throw unsupportedMedia(`Content-Type must be ${contentType}`);
    if (ctx.request.length !== undefined && ctx.request.length > limitBytes) {
      lingerThenClose(ctx.req);
      throw tooLarge(`Request body exceeds ${limitBytes} bytes`);
    }
    const hash = crypto.createHash('sha256');
    const head: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of ctx.req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > limitBytes) {
          lingerThenClose(ctx.req);
          throw tooLarge(`Request body exceeds ${limitBytes} bytes`);
        }
        if (size - chunk.length < HEAD_BYTES)
          head.push(chunk.subarray(0, HEAD_BYTES - (size - chunk.length)));
        hash.update(chunk);
      }
    } catch (err) {
      if (err instanceof Error && 'kind' in err) throw err;
      throw malformed('Request body could not be read');
    }
    const body: HashedBody = { sha256: hash.digest('hex'), sizeBytes: size, head: Buffer.concat(head) };
    ctx.request.body = body;
    return next();
  };
}
