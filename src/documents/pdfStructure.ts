import {
  PDFContext,
  PDFName,
  PDFObjectParser,
  PDFObjectStreamParser,
  PDFRawStream,
  PDFRef,
  PDFXRefStreamParser,
  type PDFObject,
} from 'pdf-lib';
import { PdfSyntax } from './pdfSyntax';
import { countPageLeaves } from './pdfNodes';
import {
  holdsRef,
  nodeOf,
  nodeOfPdfLib,
  refOf,
  STREAM_READING_KEYS,
  type Node,
  type TrailerInfo,
} from './pdfNodes';
import { isDigit, K, NotPlain, notPlain, WHITESPACE, type DictInfo, type Ref } from './pdfTokens';

/**
 * A PDF's page count as `PDFDocument.load(bytes).getPageCount()` finds it, without building pdf-lib's
 * object graph.
 *
 * pdf-lib reads a file from its first byte to its last and keeps every object it meets, the last definition
 * of each winning; the session's PDFs are later notarized through exactly that reading, so the page count
 * checked at upload must be the one it gives. Building that graph is most of an upload's cost (a deed whose
 * pages name their font on every line allocates an object each time), though a page count needs only the
 * catalog, the page tree and the trailer.
 *
 * This pass follows pdf-lib's reading step for step (header, objects, cross-reference tables, trailers,
 * object and cross-reference streams through pdf-lib's own parsers) and materialises only the keys the page
 * tree is made of, skipping every other value without allocating it. It answers only for a file read the
 * same way by both: wherever pdf-lib would take one of its recovery paths (an invalid object, bytes between
 * objects, a stream without its end, a catalog found by searching, a page tree with a dangling or looping
 * kid) or the answer depends on more than the page tree (an encrypted file), it answers `undefined` and the
 * caller asks pdf-lib itself.
 */
export async function plainPdfPageCount(
  bytes: Uint8Array,
  { decodeStreams = true }: { decodeStreams?: boolean } = {},
): Promise<number | undefined> {
  try {
    const reading = new PdfReading(bytes, decodeStreams);
    await reading.read();
    return reading.pageCount();
  } catch (err) {
    if (err instanceof NotPlain) return undefined;
    throw err;
  }
}

const refKey = (ref: Ref) => `${ref.num} ${ref.gen}`;

class PdfReading extends PdfSyntax {
  private readonly objects = new Map<string, Node>();
  private trailer: TrailerInfo = { encrypt: false };

  /**
   * `decodeStreams`: whether to read object and cross-reference streams, whose data may inflate far past
   * the file's size; without it a file that has them is not plain.
   */
  constructor(
    bytes: Uint8Array,
    private readonly decodeStreams: boolean,
  ) {
    super(bytes);
  }

  /** pdf-lib's `PDFParser.parseDocument`, holding the file to its plain form. */
  async read(): Promise<void> {
    // pdf-lib looks for the header anywhere; a plain file starts with it.
    if (!this.match(K.header)) notPlain();
    this.int();
    if (this.b[this.p] !== 0x2e) notPlain();
    this.p += 1;
    this.int();
    this.skipSpace();
    if (!this.atObjectHeader()) notPlain();
    while (this.p < this.n) {
      const before = this.p;
      await this.objectsSection();
      this.crossReferenceTable();
      this.trailerDict();
      this.startXref();
      this.expectSectionStart();
      if (this.p === before) notPlain();
    }
    // pdf-lib drops an object 0 0 R after reading.
    this.objects.delete('0 0');
  }

  /** pdf-lib's `getPageCount()`: the leaves of the catalog's page tree, walked as pdf-lib walks it. */
  pageCount(): number {
    if (this.trailer.encrypt) notPlain();
    const catalog = this.lookup(this.trailer.root);
    if (catalog.kind !== 'catalog') notPlain();
    const root = this.lookup(catalog.pages);
    if (root.kind !== 'pages') notPlain();
    return countPageLeaves(root, (ref) => this.lookup(ref));
  }

  private lookup(ref: Ref | null | undefined): Node {
    return (ref && this.objects.get(refKey(ref))) || notPlain();
  }

  /** Objects one after another (pdf-lib's `parseIndirectObjects`). */
  private async objectsSection(): Promise<void> {
    this.skipSpace();
    while (this.p < this.n && isDigit(this.b[this.p])) {
      await this.indirectObject();
      this.expectSectionStart();
    }
  }

  private async indirectObject(): Promise<void> {
    const ref = this.objectHeader() ?? notPlain();
    this.skipSpace();
    const start = this.p;
    if (this.at2(0x3c, 0x3c)) {
      const dict = this.dict(0);
      if (this.streamFollows(dict)) {
        if (dict.typeNotName) notPlain();
        if ((dict.type === 'ObjStm' || dict.type === 'XRef') && !this.decodeStreams) notPlain();
        if (dict.type === 'ObjStm') await this.objectStream(start);
        else if (dict.type === 'XRef') this.crossReferenceStream(start);
        else this.objects.set(refKey(ref), { kind: 'other' });
      } else {
        this.objects.set(refKey(ref), nodeOf(dict));
      }
    } else {
      this.value(0, false);
      this.objects.set(refKey(ref), { kind: 'other' });
    }
    this.skipSpace();
    // pdf-lib goes on without `endobj`; a plain file has it.
    if (!this.match(K.endobj)) notPlain();
  }

  /** `N G obj`, or undefined (position unchanged) when the bytes are not one. */
  private objectHeader(): Ref | undefined {
    const start = this.p;
    this.skipSpace();
    const num = this.optionalInt();
    this.skipSpace();
    const gen = num === undefined ? undefined : this.optionalInt();
    this.skipSpace();
    if (num === undefined || gen === undefined || !this.match(K.obj)) {
      this.p = start;
      return undefined;
    }
    return { num, gen };
  }

  private atObjectHeader(): boolean {
    const start = this.p;
    const header = this.objectHeader();
    this.p = start;
    return header !== undefined;
  }

  /**
   * Where pdf-lib skips bytes it cannot read (`skipJibberish`), a plain file has only what starts the next
   * part: an object, `xref`, `trailer`, `startxref`, or its end.
   */
  private expectSectionStart(): void {
    this.skipSpace();
    if (this.p >= this.n || this.atObjectHeader()) return;
    for (const kw of [K.xref, K.trailer, K.startxref]) if (this.at(kw)) return;
    notPlain();
  }

  /** pdf-lib's `maybeParseCrossRefSection`: read for its syntax only, as pdf-lib uses none of it. */
  private crossReferenceTable(): void {
    this.skipSpace();
    if (!this.match(K.xref)) return;
    this.skipSpace();
    while (this.p < this.n && isDigit(this.b[this.p])) {
      this.int();
      this.skipSpace();
      this.int();
      this.skipSpace();
      const c = this.b[this.p];
      if (c === 0x6e || c === 0x66) this.p += 1; // n, f
      this.skipSpace();
    }
  }

  /** pdf-lib's `maybeParseTrailerDict`: a key it meets replaces the one kept. */
  private trailerDict(): void {
    this.skipSpace();
    if (!this.match(K.trailer)) return;
    this.skipSpace();
    if (!this.at2(0x3c, 0x3c)) notPlain();
    const dict = this.dict(0);
    this.trailer = {
      root: dict.root !== undefined ? dict.root : this.trailer.root,
      encrypt: dict.encrypt || this.trailer.encrypt,
    };
  }

  /** pdf-lib's `maybeParseTrailer`. */
  private startXref(): void {
    this.skipSpace();
    if (!this.match(K.startxref)) return;
    this.skipSpace();
    this.int();
    while (this.p < this.n && WHITESPACE[this.b[this.p]]) this.p += 1;
    this.match(K.eof);
    this.skipSpace();
    this.match(K.eof);
    this.skipSpace();
  }

  /**
   * After a dictionary, its stream if one follows, skipped as pdf-lib skips it: by a direct `/Length` that
   * ends at `endstream`, else by searching for `endstream`. Answers whether there was a stream.
   */
  private streamFollows(dict: DictInfo): boolean {
    this.skipSpace();
    if (!K.streamStarts.some((kw) => this.match(kw))) return false;
    const start = this.p;
    if (dict.length !== undefined && dict.length !== null && start + dict.length <= this.n) {
      this.p = start + dict.length;
      this.skipSpace();
      if (this.match(K.endstream)) return true;
    }
    this.p = start;
    this.findEndOfStream(start);
    return true;
  }

  /**
   * pdf-lib's `findEndOfStreamFallback`: it counts every `stream` it meets as a nested stream, so the data of
   * a plain file holds none before its `endstream`.
   */
  private findEndOfStream(start: number): void {
    const at = this.buf.indexOf(K.stream, start);
    const end = at - 3;
    if (at === -1 || end < start || !this.at(K.endstream, end)) notPlain();
    this.p = end + K.endstream.length;
  }

  /**
   * An object stream, read by pdf-lib's own parsers as pdf-lib reads it (they decode its data), its objects
   * taking their place at this point of the file.
   */
  private async objectStream(start: number): Promise<void> {
    const stream = this.pdfLibStream(start);
    try {
      await PDFObjectStreamParser.forStream(stream).parseIntoContext();
    } catch {
      notPlain();
    }
    for (const [ref, object] of stream.dict.context.enumerateIndirectObjects())
      this.objects.set(refKey({ num: ref.objectNumber, gen: ref.generationNumber }), nodeOfPdfLib(object));
  }

  /** A cross-reference stream: pdf-lib takes the trailer keys from its dictionary, replacing all it had. */
  private crossReferenceStream(start: number): void {
    const stream = this.pdfLibStream(start);
    const context = stream.dict.context;
    try {
      PDFXRefStreamParser.forStream(stream).parseIntoContext();
    } catch {
      notPlain();
    }
    const { Root, Encrypt } = context.trailerInfo;
    this.trailer = {
      root: Root === undefined ? undefined : Root instanceof PDFRef ? refOf(Root) : null,
      encrypt: Encrypt !== undefined,
    };
  }

  /**
   * The stream at `start` as pdf-lib parses it, in a context of its own. pdf-lib resolves references in the
   * keys that say how to read the stream from all it has read so far, which that context lacks: a plain file
   * gives them directly.
   */
  private pdfLibStream(start: number): PDFRawStream {
    let object: PDFObject;
    try {
      object = PDFObjectParser.forBytes(this.b.subarray(start), PDFContext.create()).parseObject();
    } catch {
      return notPlain();
    }
    if (!(object instanceof PDFRawStream)) return notPlain();
    for (const key of STREAM_READING_KEYS) if (holdsRef(object.dict.get(PDFName.of(key)))) notPlain();
    return object;
  }
}
