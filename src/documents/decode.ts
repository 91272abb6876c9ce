import crypto from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { ParseSpeeds, PDFDocument } from 'pdf-lib';
import { DocumentError } from './documentError';
import { plainPdfPageCount } from './pdfStructure';
import type { Base64Flaw, Base64Upload } from './base64Upload';
import {
  assertImageWithinLimits,
  assertPdfInflatesWithinLimits,
  assertPdfPagesWithinLimits,
} from './documentLimits';
import { DOCUMENT_EXTENSIONS, type DocumentExtension } from '../../core/vocabulary';

export { DocumentError };

export interface DecodedDocument {
  name: string;
  extension: DocumentExtension;
  contentType: string;
  bytes: Buffer;
  sha256: string;
  /** PDFs: their pages; images: 1 (one page once converted); TXT/DOCX: known only after conversion. */
  pageCount: number | null;
}

export function sha256Hex(bytes: Buffer): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

function extensionOf(name: string): DocumentExtension {
  return name.slice(name.lastIndexOf('.') + 1).toLowerCase() as DocumentExtension;
}

/** What the bytes are, by content: the types of DOCUMENT_EXTENSIONS, with plain UTF-8 text as `txt`. */
async function sniff(bytes: Buffer): Promise<string | undefined> {
  const detected = await fileTypeFromBuffer(bytes);
  if (detected) return detected.ext;
  if (bytes.includes(0)) return undefined;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return 'txt';
  } catch {
    return undefined;
  }
}

const LABELS: Record<string, string> = {
  pdf: 'a PDF',
  docx: 'a DOCX document',
  txt: 'plain text',
  jpg: 'a JPEG image',
  png: 'a PNG image',
};

/**
 * The page count pdf-lib finds, as the PDF will later be notarized through pdf-lib: read from the page tree
 * alone when the file is plainly well-formed, else by pdf-lib's own load.
 */
export async function pdfPageCount(bytes: Uint8Array, label: string): Promise<number> {
  const plain = await plainPdfPageCount(bytes);
  if (plain !== undefined) return plain;
  let pdf: PDFDocument;
  try {
    // A document thread has nothing else to do meanwhile: parse without yielding to the event loop
    // (the default yields every 100 objects, which costs a timer each time). Encryption is judged below:
    // pdf-lib's EncryptedPDFError cannot be told from any other error (its class and name are Error's).
    pdf = await PDFDocument.load(bytes, {
      updateMetadata: false,
      parseSpeed: ParseSpeeds.Fastest,
      ignoreEncryption: true,
    });
  } catch {
    throw new DocumentError(`${label} is not a readable PDF`);
  }
  if (pdf.isEncrypted) throw new DocumentError(`${label} is an encrypted PDF`);
  try {
    // Counting walks the page tree, which pdf-lib's load does not check: a file without one fails here.
    return pdf.getPageCount();
  } catch {
    throw new DocumentError(`${label} is not a readable PDF`);
  }
}

/** What to send instead of text with a flaw a client can mend. */
const FLAW_ADVICE: Record<Base64Flaw, string> = {
  data_uri: ': send the base64 alone, without its data: URI prefix',
  line_break: ': send it on one line, without line breaks (base64 -w 0)',
};

/**
 * The bytes of an upload the body parser decoded, or the reason it cannot be a document. Runs before any
 * document work, on the caller's thread: these need no more than the parser already knows.
 */
export function uploadBytes(upload: Base64Upload, label: string): Buffer {
  const field = `${label}.base64Doc`;
  if (!upload.strict)
    throw new DocumentError(`${field} is not valid base64${upload.flaw ? FLAW_ADVICE[upload.flaw] : ''}`);
  if (upload.tooLarge) throw new DocumentError('Document exceeds maximum file size');
  if (upload.bytes.length === 0) throw new DocumentError(`${field} is empty`);
  return upload.bytes;
}

/**
 * Checks that a document's bytes are what its name says and within the limits, and counts its pages, a
 * PDF's by `countPdfPages`.
 */
export async function checkDocument(
  name: string,
  bytes: Buffer,
  label: string,
  countPdfPages: (bytes: Buffer, field: string) => Promise<number> = pdfPageCount,
): Promise<DecodedDocument> {
  const field = `${label}.base64Doc`;
  const extension = extensionOf(name);
  const expected = extension === 'jpeg' ? 'jpg' : extension;
  const actual = await sniff(bytes);
  if (actual !== expected) {
    throw new DocumentError(
      `${field} is ${actual ? (LABELS[actual] ?? `a .${actual} file`) : 'not a supported format'}, but ${label}.name says .${extension}`,
    );
  }
  if (expected === 'png' || expected === 'jpg') assertImageWithinLimits(bytes, expected, field);
  if (expected === 'pdf') await assertPdfInflatesWithinLimits(bytes, field);
  const pageCount =
    expected === 'pdf'
      ? await countPdfPages(bytes, field)
      : expected === 'txt' || expected === 'docx'
        ? null
        : 1;
  if (pageCount !== null) assertPdfPagesWithinLimits(pageCount, field);
  return {
    name,
    extension,
    contentType: DOCUMENT_EXTENSIONS[extension],
    bytes,
    sha256: sha256Hex(bytes),
    pageCount,
  };
}
