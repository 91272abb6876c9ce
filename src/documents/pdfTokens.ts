/** The byte tables, keywords and values of PDF's syntax as pdfSyntax.ts reads them. */

/** The file strays from the reading this mirrors: pdf-lib must judge it. */
export class NotPlain extends Error {}
export const notPlain = (): never => {
  throw new NotPlain();
};

export interface Ref {
  num: number;
  gen: number;
}

/** pdf-lib's own tables (`IsWhitespace`, `IsDelimiter`), which it does not export. */
export const WHITESPACE = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) WHITESPACE[c] = 1;
export const DELIMITER = new Uint8Array(256);
for (const c of '()<>[]{}/%') DELIMITER[c.charCodeAt(0)] = 1;
/** What ends a name: whitespace or a delimiter. */
export const NAME_END = WHITESPACE.map((w, c) => w | DELIMITER[c]);
export const NUMERIC = new Uint8Array(256);
for (const c of '0123456789.+-') NUMERIC[c.charCodeAt(0)] = 1;
export const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

export const keyword = (text: string) => Uint8Array.from(Buffer.from(text, 'latin1'));
export const K = {
  header: keyword('%PDF-'),
  obj: keyword('obj'),
  endobj: keyword('endobj'),
  xref: keyword('xref'),
  trailer: keyword('trailer'),
  startxref: keyword('startxref'),
  eof: keyword('%%EOF'),
  true: keyword('true'),
  false: keyword('false'),
  null: keyword('null'),
  stream: keyword('stream'),
  endstream: keyword('endstream'),
  // pdf-lib's `stream` keywords, in the order it tries them: the line ending it takes is not data.
  streamStarts: ['stream \r\n', 'stream\r\n', 'stream\r', 'stream\n', 'stream'].map(keyword),
};

/** Keys this pass reads; every other key's value is skipped. */
export const KEYS = ['Type', 'Kids', 'Pages', 'Root', 'Encrypt', 'Length'] as const;
export type Key = (typeof KEYS)[number];
/** KEYS by their length: most keys of a real file (font and resource names) have none to compare. */
export const KEYS_BY_LENGTH: { key: Key; bytes: Uint8Array }[][] = [];
for (const key of KEYS) (KEYS_BY_LENGTH[key.length] ??= []).push({ key, bytes: keyword(key) });

/** A dictionary as far as this pass reads it. */
export interface DictInfo {
  type?: string;
  /** `/Type` was given, but not as a name: pdf-lib may resolve it where this pass cannot. */
  typeNotName?: boolean;
  kids?: Ref[] | null;
  pages?: Ref | null;
  root?: Ref | null;
  encrypt?: boolean;
  /** `/Length` as a direct integer; null when given as anything else (pdf-lib then searches for the end). */
  length?: number | null;
}

/** Values the pass keeps: references, names (`/Type`), numbers (`/Length`), arrays (`/Kids`). */
export type Value = { ref: Ref } | { name: string } | { number: number } | { array: Value[] } | 'other';

/** Nesting deeper than any real document is left to pdf-lib before it costs this pass the stack. */
export const MAX_DEPTH = 64;

export function decodeName(text: string): string {
  return text.includes('#')
    ? text.replace(/#([\dABCDEF]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : text;
}

export function asRef(value: Value): Ref | null {
  return typeof value === 'object' && 'ref' in value ? value.ref : null;
}

/** A key's value into the dictionary's info; a key given twice keeps its last value, as in pdf-lib. */
export function readKey(info: DictInfo, key: Key, value: Value): void {
  switch (key) {
    case 'Type':
      info.type = typeof value === 'object' && 'name' in value ? value.name : undefined;
      info.typeNotName = info.type === undefined;
      return;
    case 'Kids': {
      const items = typeof value === 'object' && 'array' in value ? value.array.map(asRef) : null;
      info.kids = items && !items.includes(null) ? (items as Ref[]) : null;
      return;
    }
    case 'Pages':
      info.pages = asRef(value);
      return;
    case 'Root':
      info.root = asRef(value);
      return;
    case 'Encrypt':
      info.encrypt = true;
      return;
    case 'Length':
      // pdf-lib skips the data by a direct number and searches for its end otherwise.
      if (typeof value === 'object' && 'number' in value) {
        if (!Number.isInteger(value.number) || value.number < 0) notPlain();
        info.length = value.number;
      } else {
        info.length = null;
      }
      return;
  }
}
