import { getManyValues, isMany, none } from 'stream-chain/defs.js';
import { jsonParser, type Token, type TokenSource } from 'stream-json/core/parser.js';
import { Base64Decoder, Base64Upload, decodeBase64Upload } from '../documents/base64Upload';

/** The key whose string values are documents: decoded as they arrive, never kept as text. */
const UPLOAD_KEY = 'base64Doc';
/** Request bodies are a few levels deep; nesting deeper is refused before it costs memory. */
export const MAX_JSON_DEPTH = 32;

/** What a JSON string's text cannot hold as it is: its closing quote, an escape, a control character. */
// eslint-disable-next-line no-control-regex -- JSON strings may not hold raw control characters
const NOT_PLAIN_STRING_TEXT = /["\\\x00-\x1f]/;

export class JsonBodyError extends Error {}

const tooDeep = () => new JsonBodyError(`Request body nests deeper than ${MAX_JSON_DEPTH} levels`);

type Container = Record<string, unknown> | unknown[];

/** Sets a parsed member the way JSON.parse does: `__proto__` is an own property, never the prototype. */
function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * Whether JSON text opens more than MAX_JSON_DEPTH containers at once: one pass over the text, before
 * anything parses or walks it, so a hostile nesting costs its length and no more.
 */
export function nestsTooDeep(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = endOfString(text, i + 1);
      if (i === -1) return false; // unterminated: JSON.parse refuses it
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Where the string whose text starts at `from` closes (-1: never). A document's string is most of a body, so
 * quotes are found with `indexOf` (a native scan); one is escaped when an odd run of backslashes precedes it.
 */
function endOfString(text: string, from: number): number {
  for (let at = text.indexOf('"', from); at !== -1; at = text.indexOf('"', at + 1)) {
    let backslashes = 0;
    while (at - backslashes > from && text.charCodeAt(at - backslashes - 1) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return -1;
}

/** JSON text already in memory, its depth checked first, as the value the streaming reader below builds. */
export function parseBoundedJson(text: string, uploads: boolean): unknown {
  if (nestsTooDeep(text)) throw tooDeep();
  const parsed: unknown = JSON.parse(text);
  return uploads ? withUploads(parsed) : parsed;
}

/** JSON.parse's value with each `base64Doc` string swapped for its decoded Base64Upload. */
export function withUploads(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) value[i] = withUploads(item);
    return value;
  }
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    const member = object[key];
    setMember(
      object,
      key,
      key === UPLOAD_KEY && typeof member === 'string' ? decodeBase64Upload(member) : withUploads(member),
    );
  }
  return value;
}

/**
 * Builds a request body from JSON text that arrives in pieces, decoding each `base64Doc` string into a
 * Base64Upload as its text arrives. Holds the value being built, one decoder, and the pieces of the
 * current ordinary string; never the body's text.
 */
export class StreamingJsonReader {
  // Its input is text, or `none` (typed as text by the library) for the end of the input.
  private readonly parse: (input: string | typeof none) => ReturnType<TokenSource> = jsonParser({
    packKeys: true,
    streamKeys: false,
    packNumbers: true,
    streamNumbers: false,
    packStrings: false,
    streamStrings: true,
  }) as unknown as (input: string | typeof none) => ReturnType<TokenSource>;
  private readonly stack: Container[] = [];
  private key: string | undefined;
  private root: unknown;
  private done = false;
  private pieces: string[] = [];
  private decoder: Base64Decoder | undefined;
  /** Whether the document's string being read had an escape: then only the parser reads the rest of it. */
  private escaped = false;

  /** `uploads`: whether `base64Doc` strings are documents (the routes that take them). */
  constructor(private readonly options: { uploads: boolean }) {}

  /** `remainingBytes`: how much of the body is still to come, if known (sizes a document's buffer). */
  write(text: string, remainingBytes?: number): void {
    if (this.decoder && !this.escaped) {
      // Inside a document's string, its text goes straight to the decoder up to whatever ends the string
      // or needs the parser (an escape, a control character the parser refuses). Through the parser, a
      // 10 MB document would be tens of thousands of tokens and strings: the body's size several times
      // over in short-lived garbage.
      const stop = text.search(NOT_PLAIN_STRING_TEXT);
      if (stop === -1) return this.decoder.write(text);
      if (stop > 0) this.decoder.write(text.slice(0, stop));
      text = text.slice(stop);
    }
    this.take(this.parse(text), remainingBytes);
    // The parser may hold an escape split across pieces, so it reads the rest of that string itself.
    if (this.decoder && text.includes('\\')) this.escaped = true;
  }

  end(): unknown {
    this.take(this.parse(none));
    if (!this.done) throw new JsonBodyError('Invalid JSON body');
    return this.root;
  }

  private take(tokens: ReturnType<TokenSource>, remainingBytes?: number): void {
    if (tokens === none) return;
    for (const token of isMany(tokens) ? getManyValues(tokens) : [tokens as Token])
      this.token(token, remainingBytes);
  }

  private token(token: Token, remainingBytes?: number): void {
    switch (token.name) {
      case 'startObject':
        return this.open({});
      case 'startArray':
        return this.open([]);
      case 'endObject':
      case 'endArray':
        this.stack.pop();
        return;
      case 'keyValue':
        this.key = token.value;
        return;
      case 'startString':
        if (this.options.uploads && this.key === UPLOAD_KEY && this.inObject())
          this.decoder = new Base64Decoder(
            remainingBytes === undefined ? undefined : Math.ceil((remainingBytes * 3) / 4),
          );
        return;
      case 'stringChunk':
        if (this.decoder) this.decoder.write(token.value);
        else this.pieces.push(token.value);
        return;
      case 'endString': {
        const value: string | Base64Upload = this.decoder ? this.decoder.end() : this.pieces.join('');
        this.decoder = undefined;
        this.escaped = false;
        this.pieces = [];
        return this.add(value);
      }
      case 'numberValue':
        return this.add(Number(token.value));
      case 'nullValue':
      case 'trueValue':
      case 'falseValue':
        return this.add(token.value);
      default:
        return;
    }
  }

  private inObject(): boolean {
    const top = this.stack[this.stack.length - 1];
    return top !== undefined && !Array.isArray(top);
  }

  private open(container: Container): void {
    if (this.stack.length >= MAX_JSON_DEPTH) throw tooDeep();
    this.add(container);
    this.stack.push(container);
  }

  private add(value: unknown): void {
    const top = this.stack[this.stack.length - 1];
    if (top === undefined) {
      this.root = value;
      this.done = true;
    } else if (Array.isArray(top)) {
      top.push(value);
    } else {
      setMember(top, this.key!, value);
    }
  }
}
