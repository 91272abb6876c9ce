import crypto from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { ParseSpeeds, PDFDocument } from 'pdf-lib';
import { DocumentError } from './documentError';
import {
  assertImageWithinLimits,
  assertPdfInflatesWithinLimits,
  assertPdfPagesWithinLimits,
} from './documentLimits';
import { DOCUMENT_EXTENSIONS, MAX_DOCUMENT_BYTES, type DocumentExtension } from '../sessions/vocabulary';

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

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

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

async function pdfPageCount(bytes: Buffer, label: string): Promise<number> {
  let pdf: PDFDocument;
  try {
    // A document thread has nothing else to do meanwhile: parse without yielding to the event loop
    // (the default yields every 100 objects, which costs a timer each time).
    pdf = await PDFDocument.load(bytes, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
  } catch (err) {
    if ((err as Error).name === 'EncryptedPDFError') throw new DocumentError(`${label} is an encrypted PDF`);
    throw new DocumentError(`${label} is not a readable PDF`);
  }
  return pdf.getPageCount();
}

/**
 * Decodes one strict-base64 document and checks that its bytes are what its name says. The base64
 * string is the caller's; this holds only the decoded bytes.
 */
export async function decodeDocument(name: string, base64: string, label: string): Promise<DecodedDocument> {
  const field = `${label}.base64Doc`;
  if (base64.length % 4 !== 0 || !BASE64.test(base64))
    throw new DocumentError(`${field} is not valid base64`);
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) throw new DocumentError(`${field} is empty`);
  if (bytes.length > MAX_DOCUMENT_BYTES) throw new DocumentError('Document exceeds maximum file size');
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
      ? await pdfPageCount(bytes, field)
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
