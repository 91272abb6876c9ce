import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Next } from 'koa';
import getRawBody from 'raw-body';
import { malformed, tooLarge, unsupportedMedia } from '../../domain/errors';
import type { AppContext } from '../context';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
const EMPTY_SHA256 = crypto.createHash('sha256').update('').digest('hex');
/**
 * After a 413, Node reads and discards the rest of the body so the client, still uploading, gets to
 * read the answer (closing at once resets its upload and it sees no answer at all). Like nginx's
 * lingering close, that discarding is bounded: a body still arriving after this long is cut off.
 */
const LINGER_AFTER_413_MS = 10_000;

function lingerThenClose(req: IncomingMessage): void {
  if (req.complete) return;
  const timer = setTimeout(() => req.socket.destroy(), LINGER_AFTER_413_MS);
  timer.unref();
  req.once('close', () => clearTimeout(timer));
}

/**
 * Reads a JSON body once into one string, hashes it (idempotency keys compare bodies), parses it and
 * lets the string go: a 13 MB base64 document is then held once, inside the parsed object.
 */
export function jsonBody(limitBytes: number) {
  return async (ctx: AppContext, next: Next) => {
    if (!METHODS_WITH_BODY.has(ctx.method) || (!ctx.request.length && !ctx.get('transfer-encoding'))) {
      ctx.request.body = {};
      ctx.state.bodySha256 = EMPTY_SHA256;
      return next();
    }
    if (!ctx.is('application/json', '+json')) {
      throw unsupportedMedia('Content-Type must be application/json');
    }
    let text: string;
    try {
      text = await getRawBody(ctx.req, { limit: limitBytes, length: ctx.request.length, encoding: 'utf8' });
    } catch (err) {
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large') {
        lingerThenClose(ctx.req);
        throw tooLarge(`Request body exceeds ${limitBytes} bytes`);
      }
      throw malformed('Request body could not be read');
    }
    ctx.state.bodySha256 = crypto.createHash('sha256').update(text).digest('hex');
    try {
      ctx.request.body = text.trim() === '' ? {} : JSON.parse(text);
    } catch {
      throw malformed('Invalid JSON body');
    }
    return next();
  };
}
