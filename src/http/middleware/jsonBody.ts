import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Next } from 'koa';
import { StringDecoder } from 'node:string_decoder';
import { malformed, tooLarge, unsupportedMedia } from '../../domain/errors';
import type { AppContext } from '../context';
import { JsonBodyError, StreamingJsonReader, parseBoundedJson } from '../jsonWithUploads';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
const EMPTY_SHA256 = crypto.createHash('sha256').update('').digest('hex');
/**
 * After a 413, the rest of the body is read and discarded so the client, still uploading, gets to read
 * the answer (closing at once resets its upload and it sees no answer at all), and the connection is
 * clean for its next request. Like nginx's lingering close, that discarding is bounded: a body still
 * arriving after this long is cut off.
 */
const LINGER_AFTER_413_MS = 10_000;

export function lingerThenClose(req: IncomingMessage): void {
  if (req.complete) return;
  // Node discards an unread body by itself, but not one whose reading had begun.
  req.resume();
  const timer = setTimeout(() => req.socket.destroy(), LINGER_AFTER_413_MS);
  timer.unref();
  req.once('close', () => clearTimeout(timer));
}

/** What a body gathered before it proved large goes to the streaming reader in pieces of this many characters. */
const GATHERED_PIECE_CHARS = 64 * 1024;

/** Below this size a body is read whole and parsed natively; above it, parsed as it arrives. */
export const STREAMED_BODY_BYTES = 1024 * 1024;

/**
 * A body as it is read, bytes to value: hashed when asked, gathered while it may still be parsed whole, and
 * handed to a streaming reader once it proves large.
 */
class BodyText {
  /** Whether any text came (a body of none is read as `{}`). */
  private started = false;
  private readonly decoder = new StringDecoder('utf8');
  /**
   * The bytes of a body that may still be parsed whole, to be decoded once into one flat string: decoded
   * piece by piece and joined, the text would be copied once more to be parsed.
   */
  private gathered: Buffer[] = [];
  private received = 0;
  private text = '';
  private streaming: StreamingJsonReader | undefined;
  private invalid: Error | undefined;

  constructor(
    private readonly uploads: boolean,
    private readonly declared: number | undefined,
    private readonly hash: crypto.Hash | undefined,
  ) {}

  /** A piece of the body as received. */
  write(chunk: Buffer): void {
    // Bytes of the body from this piece on, if its length was declared: sizes a document's buffer.
    const remaining = this.declared === undefined ? undefined : this.declared - this.received;
    this.received += chunk.length;
    if (!this.streaming && this.received <= STREAMED_BODY_BYTES) {
      this.gathered.push(chunk);
      return;
    }
    this.decodeGathered();
    this.feed(this.decoder.write(chunk), remaining);
  }

  /** The body's end: every byte decoded, hashed and read. */
  end(): void {
    this.decodeGathered();
    this.feed(this.decoder.end());
  }

  /** The parsed body; throws a 400 for what is not JSON. */
  value(): unknown {
    // No body at all is an empty one; whitespace alone is not a JSON text (RFC 8259 §2) and is refused.
    if (!this.started) return {};
    try {
      if (this.invalid) throw this.invalid;
      if (this.streaming) return this.streaming.end();
      return parseBoundedJson(this.text, this.uploads);
    } catch (err) {
      throw malformed(err instanceof JsonBodyError ? err.message : 'Invalid JSON body');
    }
  }

  private decodeGathered(): void {
    if (!this.gathered.length) return;
    const { gathered } = this;
    this.gathered = [];
    this.feed(this.decoder.write(gathered.length === 1 ? gathered[0] : Buffer.concat(gathered)));
  }

  /** `remaining`: bytes of the body from this piece on, if known. */
  private feed(piece: string, remaining?: number): void {
    if (!piece) return;
    // A byte-order mark is not part of the JSON (and was never part of the hash).
    if (!this.started && piece.startsWith('\uFEFF')) piece = piece.slice(1);
    this.started = true;
    this.hash?.update(piece);
    if (this.invalid) return;
    if (!this.streaming && this.text.length + piece.length <= STREAMED_BODY_BYTES) {
      this.text += piece;
      return;
    }
    try {
      if (!this.streaming) {
        this.streaming = new StreamingJsonReader({ uploads: this.uploads });
        // What was gathered goes in as the pieces it came in would have: a document's string opened in it
        // then skips the parser from the next piece on, and its decoder is sized from the body's length.
        for (let at = 0; at < this.text.length; at += GATHERED_PIECE_CHARS)
          this.streaming.write(
            this.text.slice(at, at + GATHERED_PIECE_CHARS),
            this.declared === undefined ? undefined : this.declared - at,
          );
        this.text = '';
      }
      this.streaming.write(piece, remaining);
    } catch (err) {
      // The rest is still read (and hashed), so the client gets the answer rather than a reset.
      this.invalid = err as Error;
    }
  }
}

/**
 * Reads the body's text, hashing it when an Idempotency-Key will compare it, and parsing it. A body of at most
 * STREAMED_BODY_BYTES is parsed once it is all here; a larger one is parsed as it arrives, so its text is
 * never held whole. With `uploads`, each `base64Doc` string becomes a decoded Base64Upload either way.
 */
async function readJson(ctx: AppContext, limitBytes: number, uploads: boolean) {
  // Only an Idempotency-Key compares bodies: hashing every body would cost each create a pass over it.
  const hash = ctx.get('idempotency-key') ? crypto.createHash('sha256') : undefined;
  const declared = ctx.request.length;
  const body = new BodyText(uploads, declared, hash);
  let received = 0;
  try {
    // Leaving the loop early must not destroy the request: the client is still to read the 413.
    for await (const chunk of ctx.req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > limitBytes) break;
      body.write(chunk);
    }
    body.end();
  } catch {
    throw malformed('Request body could not be read');
  }
  if (received > limitBytes) {
    lingerThenClose(ctx.req);
    throw tooLarge(`Request body exceeds ${limitBytes} bytes`);
  }
  if (declared !== undefined && received !== declared) throw malformed('Request body could not be read');
  ctx.state.bodySha256 = hash?.digest('hex');
  return body.value();
}

export function jsonBody(limitBytes: number, { uploads = false, beacon = false } = {}) {
  return async (ctx: AppContext, next: Next) => {
    if (!METHODS_WITH_BODY.has(ctx.method) || (!ctx.request.length && !ctx.get('transfer-encoding'))) {
      ctx.request.body = {};
      ctx.state.bodySha256 = EMPTY_SHA256;
      return next();
    }
    if (!ctx.is('application/json', '+json') && !(beacon && ctx.is('text/plain'))) {
      throw unsupportedMedia('Content-Type must be application/json');
    }
    // JSON between systems is UTF-8 (RFC 8259 §8.1): another charset's text would only fail to parse,
    // as "Invalid JSON body", which points the caller at the wrong fault.
    if (!/^(utf-?8)?$/i.test(ctx.request.charset)) {
      throw unsupportedMedia('Content-Type charset must be utf-8');
    }
    // A compressed body is not read as one (RFC 9110 §15.5.16): the caller is told to send it as it is.
    const coding = ctx.get('content-encoding').trim();
    if (coding && coding.toLowerCase() !== 'identity') {
      ctx.set('Accept-Encoding', 'identity');
      throw unsupportedMedia('Content-Encoding is not supported: send the body uncompressed');
    }
    if (ctx.request.length !== undefined && ctx.request.length > limitBytes) {
      lingerThenClose(ctx.req);
      throw tooLarge(`Request body exceeds ${limitBytes} bytes`);
    }
    ctx.request.body = await readJson(ctx, limitBytes, uploads);
    return next();
  };
}
