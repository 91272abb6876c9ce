/**
 * Runs in the document pool's worker threads: everything CPU- and memory-heavy about one upload
 * (base64, sniffing, the limits, conversion to PDF, reading the PDF's pages), off the API's event loop.
 */
import { ParseSpeeds, PDFDocument } from 'pdf-lib';
import { decodeDocument, DocumentError, sha256Hex } from './decode';
import { ConversionUnavailableError, toPdf } from './convert';

export interface PrepareTask {
  name: string;
  base64: string;
  /** The field the document came in, e.g. `session_documents[2]`, for the messages. */
  label: string;
  soffice: string;
}

export interface PreparedDocument {
  name: string;
  extension: string;
  contentType: string;
  bytes: Uint8Array;
  sha256: string;
  /** The PDF form when it differs from the upload (a conversion), else null. */
  pdf: Uint8Array | null;
  pdfSha256: string | null;
  pageCount: number;
}

/** Errors cross the thread as values: their class would not survive the trip. */
export type PrepareOutcome =
  { ok: true; document: PreparedDocument } | { ok: false; kind: 'document' | 'unavailable'; message: string };

export default async function prepareDocument(task: PrepareTask): Promise<PrepareOutcome> {
  try {
    const decoded = await decodeDocument(task.name, task.base64, task.label);
    const pdf =
      decoded.extension === 'pdf'
        ? null
        : await toPdf(decoded.bytes, decoded.extension, task.soffice, task.label);
    const pageCount =
      decoded.pageCount ?? (await PDFDocument.load(pdf!, { parseSpeed: ParseSpeeds.Fastest })).getPageCount();
    return {
      ok: true,
      document: {
        name: decoded.name,
        extension: decoded.extension,
        contentType: decoded.contentType,
        bytes: decoded.bytes,
        sha256: decoded.sha256,
        pdf,
        pdfSha256: pdf ? sha256Hex(pdf) : null,
        pageCount,
      },
    };
  } catch (err) {
    if (err instanceof DocumentError) return { ok: false, kind: 'document', message: err.message };
    if (err instanceof ConversionUnavailableError)
      return { ok: false, kind: 'unavailable', message: err.message };
    throw err;
  }
}
