/**
 * PDF's syntax read as pdf-lib's `PDFObjectParser` reads it, byte for byte, but held to its plain form
 * (anything pdf-lib would only get past by luck or by recovering is `NotPlain`), and materialising only the
 * dictionary keys the page tree is made of: every other value is skipped without being allocated.
 */

import {
  decodeName,
  isDigit,
  DELIMITER,
  K,
  KEYS,
  KEYS_BY_LENGTH,
  MAX_DEPTH,
  NAME_END,
  notPlain,
  NUMERIC,
  readKey,
  WHITESPACE,
  type DictInfo,
  type Key,
  type Value,
} from './pdfTokens';

/** The reading position over a file's bytes, and the values at it. */
export class PdfSyntax {
  protected p = 0;
  protected readonly n: number;
  /** The same bytes, for Buffer's native search and decoding. */
  protected readonly buf: Buffer;

  constructor(protected readonly b: Uint8Array) {
    this.n = b.length;
    this.buf = Buffer.from(b.buffer, b.byteOffset, b.length);
  }

  /** pdf-lib's `parseObject`; `keep` materialises what this pass reads, else the value is only skipped. */
  protected value(depth: number, keep: boolean): Value {
    if (depth > MAX_DEPTH) notPlain();
    this.skipSpace();
    if (this.p >= this.n) notPlain();
    const c = this.b[this.p];
    switch (c) {
      case 0x2f: {
        const name = this.name(keep);
        return keep ? { name: name! } : 'other';
      }
      case 0x3c:
        if (this.b[this.p + 1] === 0x3c) {
          this.dict(depth);
          // A stream may follow only an object's own dictionary.
          this.expectNoStream();
          return 'other';
        }
        return this.hexString();
      case 0x28:
        this.string();
        return 'other';
      case 0x5b:
        return this.array(depth, keep);
      case 0x74:
      case 0x66:
      case 0x6e:
        if (!(this.match(K.true) || this.match(K.false) || this.match(K.null))) notPlain();
        this.expectBoundary();
        return 'other';
      default:
        return NUMERIC[c] ? this.numberOrRef(keep) : notPlain();
    }
  }

  /** pdf-lib's `parseHexString`: every byte up to `>`. */
  private hexString(): Value {
    const end = this.b.indexOf(0x3e, this.p + 1);
    if (end === -1) notPlain();
    this.p = end + 1;
    return 'other';
  }

  protected dict(depth: number): DictInfo {
    this.p += 2;
    this.skipSpace();
    const info: DictInfo = {};
    for (;;) {
      if (this.p >= this.n) notPlain();
      if (this.b[this.p] === 0x3e) {
        if (this.b[this.p + 1] !== 0x3e) notPlain();
        this.p += 2;
        return info;
      }
      if (this.b[this.p] !== 0x2f) notPlain();
      const key = this.key();
      const value = this.value(depth + 1, key !== undefined);
      if (key !== undefined) readKey(info, key, value);
      this.skipSpace();
    }
  }

  /** A dictionary key: one of KEYS (decoded as pdf-lib decodes names), else undefined. */
  private key(): Key | undefined {
    const start = this.p + 1;
    const escaped = this.skipName();
    const end = this.p;
    if (end === start) notPlain();
    if (escaped) {
      const decoded = decodeName(this.buf.toString('latin1', start, end));
      return KEYS.find((k) => k === decoded);
    }
    const candidates = KEYS_BY_LENGTH[end - start];
    if (candidates) for (const { key, bytes } of candidates) if (this.at(bytes, start)) return key;
    return undefined;
  }

  /** pdf-lib's `parseName`: `/` and every byte up to whitespace or a delimiter. */
  private name(keep: boolean): string | undefined {
    const start = this.p + 1;
    this.skipName();
    return keep ? decodeName(this.buf.toString('latin1', start, this.p)) : undefined;
  }

  /** Past a name; answers whether it holds a `#` escape. */
  private skipName(): boolean {
    const { b, n } = this;
    let p = this.p + 1;
    let escaped = false;
    for (; p < n; p++) {
      const c = b[p];
      if (NAME_END[c]) break;
      if (c === 0x23) escaped = true;
    }
    this.p = p;
    return escaped;
  }

  private array(depth: number, keep: boolean): Value {
    this.p += 1;
    this.skipSpace();
    const items: Value[] = [];
    while (this.b[this.p] !== 0x5d) {
      if (this.p >= this.n) notPlain();
      const item = this.value(depth + 1, keep);
      if (keep) items.push(item);
      this.skipSpace();
    }
    this.p += 1;
    return keep ? { array: items } : 'other';
  }

  /** pdf-lib's `parseString`: balanced parentheses, a backslash escaping the next byte. */
  private string(): void {
    let depth = 0;
    let escaped = false;
    while (this.p < this.n) {
      const c = this.b[this.p++];
      if (!escaped) {
        if (c === 0x28) depth += 1;
        if (c === 0x29) depth -= 1;
      }
      escaped = c === 0x5c ? !escaped : false;
      if (depth === 0) return;
    }
    notPlain();
  }

  /** pdf-lib's `parseNumberOrRef`: a number, or `N G R` (of plain digits, in a plain file). */
  private numberOrRef(keep: boolean): Value {
    const first = this.p;
    const firstIsInt = this.number();
    const firstEnd = this.p;
    this.skipSpace();
    const lookahead = this.p;
    if (isDigit(this.b[this.p])) {
      const second = this.p;
      const secondIsInt = this.number();
      const secondEnd = this.p;
      this.skipSpace();
      if (this.b[this.p] === 0x52) {
        this.p += 1;
        this.expectBoundary();
        if (!firstIsInt || !secondIsInt) notPlain();
        return keep
          ? { ref: { num: this.numberAt(first, firstEnd), gen: this.numberAt(second, secondEnd) } }
          : 'other';
      }
    }
    this.p = lookahead;
    return keep ? { number: this.numberAt(first, firstEnd) } : 'other';
  }

  /**
   * pdf-lib's `parseRawNumber` (numeric bytes up to a first `.`, then digits), its text held to what
   * `Number()` reads as itself: a sign only first, a digit somewhere, at most 15 digits. Answers whether it
   * is plain digits.
   */
  private number(): boolean {
    const { b, n } = this;
    const start = this.p;
    let p = start;
    while (p < n && NUMERIC[b[p]]) {
      if (b[p++] === 0x2e) break;
    }
    while (p < n && isDigit(b[p])) p += 1;
    let digits = 0;
    for (let i = start; i < p; i++) {
      const c = b[i];
      if (isDigit(c)) digits += 1;
      else if ((c === 0x2b || c === 0x2d) && i !== start) notPlain();
    }
    if (digits === 0 || digits > 15) notPlain();
    this.p = p;
    return digits === p - start;
  }

  private numberAt(start: number, end: number): number {
    return Number(this.buf.toString('latin1', start, end));
  }

  /** pdf-lib's `parseRawInt`. */
  protected int(): number {
    return this.optionalInt() ?? notPlain();
  }

  protected optionalInt(): number | undefined {
    const start = this.p;
    let value = 0;
    while (this.p < this.n && isDigit(this.b[this.p])) value = value * 10 + (this.b[this.p++] - 0x30);
    if (this.p === start) return undefined;
    if (this.p - start > 15) notPlain();
    return value;
  }

  /** pdf-lib's `skipWhitespaceAndComments`. */
  protected skipSpace(): void {
    const { b, n } = this;
    let p = this.p;
    for (;;) {
      while (p < n && WHITESPACE[b[p]]) p += 1;
      if (p >= n || b[p] !== 0x25) break;
      while (p < n && b[p] !== 0x0a && b[p] !== 0x0d) p += 1;
    }
    this.p = p;
  }

  /** A keyword pdf-lib matches byte for byte; a plain file ends it there. */
  private expectBoundary(): void {
    const c = this.b[this.p];
    if (this.p < this.n && !WHITESPACE[c] && !DELIMITER[c]) notPlain();
  }

  private expectNoStream(): void {
    const start = this.p;
    this.skipSpace();
    if (this.at(K.stream)) notPlain();
    this.p = start;
  }

  protected at(kw: Uint8Array, at = this.p): boolean {
    if (at + kw.length > this.n) return false;
    for (let i = 0; i < kw.length; i++) if (this.b[at + i] !== kw[i]) return false;
    return true;
  }

  protected at2(c1: number, c2: number): boolean {
    return this.b[this.p] === c1 && this.b[this.p + 1] === c2;
  }

  protected match(kw: Uint8Array): boolean {
    if (!this.at(kw)) return false;
    this.p += kw.length;
    return true;
  }
}

/** pdf-lib's `decodeName`: `#` and two upper-case hex digits stand for a byte. */
