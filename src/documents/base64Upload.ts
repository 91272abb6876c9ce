import { MAX_DOCUMENT_BYTES } from '../../core/vocabulary';

/** What made text plainly other than strict base64, so that the refusal can say what to send instead. */
export type Base64Flaw = 'data_uri' | 'line_break';

/**
 * A `base64Doc` as the body parser decoded it while the request arrived: the document's bytes, never its
 * base64 text (a 10 MB document would otherwise be held as 13 MB of text several times over).
 */
export class Base64Upload {
  constructor(
    /** The decoded bytes; empty when the text was not strict base64 or decodes past the limit. */
    readonly bytes: Buffer,
    /** Characters of text the client sent. */
    readonly encodedLength: number,
    /** Bytes the text stands for, from its length and final padding alone, as if it were strict. */
    readonly decodedLength: number,
    readonly strict: boolean,
    /** Set only when not strict, and only for the flaws a client can be told how to mend. */
    readonly flaw?: Base64Flaw,
  ) {}

  get tooLarge(): boolean {
    return this.decodedLength > MAX_DOCUMENT_BYTES;
  }
}

/** The last quantum, the only one that may carry padding (write() refuses `=` anywhere else). */
const FINAL_QUANTUM = /^[A-Za-z0-9+/]{2,4}={0,2}$/;
const DATA_URI = 'data:';
/** Characters decoded at a time. */
const STEP = 64 * 1024;
/** The first buffer when the size to expect is unknown; it doubles as needed. */
const FIRST_BUFFER_BYTES = 64 * 1024;

/**
 * Decodes strict base64 (the alphabet of RFC 4648 §4, padding only at the end, a length that is a multiple
 * of 4) from pieces of text as they arrive. Memory: the decoded bytes, at most MAX_DOCUMENT_BYTES of them,
 * plus less than one step of text and the re-encoding of one step.
 */
export class Base64Decoder {
  private pending = '';
  /** Where in `pending` the padding starts, or -1. */
  private padding = -1;
  private encodedLength = 0;
  /** The text's last two characters, for its padding. */
  private tail = '';
  private decoded = 0;
  private strict = true;
  private out: Buffer;
  private used = 0;
  /** The text's first characters, to tell a data URI. */
  private head = '';
  private lineBreak = false;

  /** `expectedBytes`: what the rest of the body could decode to, if known; it sizes the buffer once. */
  constructor(expectedBytes?: number) {
    this.out = Buffer.allocUnsafe(Math.min(expectedBytes ?? FIRST_BUFFER_BYTES, MAX_DOCUMENT_BYTES));
  }

  write(text: string): void {
    if (this.head.length < DATA_URI.length) this.head += text.slice(0, DATA_URI.length - this.head.length);
    this.encodedLength += text.length;
    this.tail = text.length >= 2 ? text.slice(-2) : (this.tail + text).slice(-2);
    if (!this.strict) return;
    const held = this.pending.length;
    const padding = text.indexOf('=');
    if (this.padding === -1 && padding !== -1) this.padding = held + padding;
    // Padding may only end the text, at most two characters of it: what follows is judged at the end.
    if (this.padding !== -1 && held + text.length - this.padding > 2) return this.refuse(text);
    const ready = this.padding === -1 ? held + text.length : this.padding;
    // The parser hands over a few hundred characters at a time: they are gathered and decoded a step at a
    // time, one check and one write per step rather than per piece.
    if (ready < STEP) {
      this.pending = held ? this.pending + text : text;
      return;
    }
    const take = ready - (ready % 4);
    // What is held is joined with only the characters that complete its last quantum; the rest of the
    // piece is decoded where it lies, not copied into a joined string first.
    const completing = (4 - (held % 4)) % 4;
    if (held) this.decode(this.pending + text.slice(0, completing), false);
    const start = held ? completing : 0;
    this.decode(text.slice(start, take - held), false);
    this.pending = text.slice(take - held);
    if (this.padding !== -1) this.padding -= take;
  }

  end(): Base64Upload {
    if (this.strict && this.encodedLength % 4 !== 0) this.refuse(this.pending);
    if (this.strict) this.decode(this.pending, true);
    const padding = this.tail === '==' ? 2 : this.tail.endsWith('=') ? 1 : 0;
    const decodedLength = Math.floor((this.encodedLength * 3) / 4) - padding;
    const kept = this.strict && decodedLength <= MAX_DOCUMENT_BYTES;
    // A buffer sized from the body but filled far less is copied out, so the rest is not held.
    const bytes = !kept
      ? Buffer.alloc(0)
      : this.used * 2 < this.out.length
        ? Buffer.from(this.out.subarray(0, this.used))
        : this.out.subarray(0, this.used);
    this.pending = '';
    this.release();
    return new Base64Upload(bytes, this.encodedLength, decodedLength, this.strict, this.flaw());
  }

  private flaw(): Base64Flaw | undefined {
    if (this.strict) return undefined;
    if (this.head.toLowerCase() === DATA_URI) return 'data_uri';
    return this.lineBreak ? 'line_break' : undefined;
  }

  /**
   * `text`: where strictness failed. Text with a line break always fails where it lies (the decoder skips it,
   * or it breaks the final quantum or the padding), so only failing text needs looking at.
   */
  private refuse(text: string): void {
    this.lineBreak = text.includes('\n') || text.includes('\r');
    this.strict = false;
    this.pending = '';
    this.release();
  }

  /** Lets the decoded bytes go: refused, too large, or handed over. */
  private release(): void {
    this.out = Buffer.alloc(0);
    this.used = 0;
  }

  /** Decodes whole quanta; `final`: the text's end, whose last quantum may be padded. */
  private decode(text: string, final: boolean): void {
    const last = final ? text.slice(-4) : '';
    if (last && !FINAL_QUANTUM.test(last)) return this.refuse(text);
    const unpadded = text.slice(0, text.length - last.length);
    const padding = last.endsWith('==') ? 2 : last.endsWith('=') ? 1 : 0;
    const length = (text.length / 4) * 3 - padding;
    this.decoded += length;
    // Past the limit the text is still checked, but nothing more is kept.
    if (this.decoded > MAX_DOCUMENT_BYTES) {
      this.release();
      return this.checkWithoutKeeping(unpadded);
    }
    if (this.used + length > this.out.length) {
      const grown = Buffer.allocUnsafe(
        Math.min(Math.max(this.out.length * 2, this.used + length), MAX_DOCUMENT_BYTES),
      );
      this.out.copy(grown, 0, 0, this.used);
      this.out = grown;
    }
    const written = this.out.write(text, this.used, length, 'base64');
    if (!decodedStrictly(text, written, length)) return this.refuse(text);
    this.used += written;
  }

  /** Past the limit: whether the text is strict, decoded a step at a time into bytes that are not kept. */
  private checkWithoutKeeping(text: string): void {
    for (let at = 0; at < text.length; at += STEP) {
      const piece = text.slice(at, at + STEP);
      if (!decodedStrictly(piece, Buffer.from(piece, 'base64').length, (piece.length / 4) * 3))
        return this.refuse(piece);
    }
  }
}

/**
 * Whether `text`, decoded by Node into `written` bytes where strict base64 stands for `expected`, was strict.
 * Node's decoder skips what is not base64 (fewer bytes), takes base64url's `-` and `_`, and reads a character
 * past ASCII by its low byte (`Ł` as `A`): text of the standard alphabet alone decodes to exactly its bytes.
 * Native scans, without re-encoding the bytes to compare (a copy of the text per document).
 */
function decodedStrictly(text: string, written: number, expected: number): boolean {
  return (
    written === expected &&
    Buffer.byteLength(text, 'utf8') === text.length &&
    !text.includes('-') &&
    !text.includes('_')
  );
}

/** Decodes a whole base64 string at once (callers that already hold one). */
export function decodeBase64Upload(text: string): Base64Upload {
  const decoder = new Base64Decoder(Math.ceil((text.length * 3) / 4));
  decoder.write(text);
  return decoder.end();
}
