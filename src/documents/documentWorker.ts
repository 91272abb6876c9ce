/**
 * Runs in the document pool's worker threads: everything CPU- and memory-heavy about one upload
 * (base64, sniffing, the limits, conversion to PDF, reading the PDF's pages), off the API's event loop.
 */
import { checkDocument, DocumentError, pdfPageCount, sha256Hex } from './decode';
import { movingBytes } from './movableBytes';
import { threadHeapBytes, type ThreadTaskOutcome } from '../threads/recyclingThreadPool';
import { ConversionUnavailableError, toPdf, type LibreOffice } from './convert';

export interface PrepareTask {
  name: string;
  /** The decoded upload, moved to the thread when it owns its memory. */
  bytes: Uint8Array;
  /** The field the document came in, e.g. `session_documents[2]`, for the messages. */
  label: string;
  libreOffice: LibreOffice;
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
export type PrepareOutcome = ThreadTaskOutcome &
  (
    | { ok: true; document: PreparedDocument }
    | { ok: false; kind: 'document' | 'unavailable'; message: string }
  );

/** The outcome with its byte arrays moved, not copied, back to the caller's thread. */
function moving(document: PreparedDocument) {
  const outcome: PrepareOutcome = { ok: true, document, threadHeapBytes: threadHeapBytes() };
  return movingBytes(outcome, [document.bytes, document.pdf]);
}

export default async function prepareDocument(
  task: PrepareTask,
): Promise<PrepareOutcome | ReturnType<typeof moving>> {
  try {
    const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
    const decoded = await checkDocument(task.name, bytes, task.label);
    const pdf =
      decoded.extension === 'pdf'
        ? null
        : await toPdf(decoded.bytes, decoded.extension, task.libreOffice, task.label);
    const pageCount = decoded.pageCount ?? (await pdfPageCount(pdf!, task.label));
    return moving({
      name: decoded.name,
      extension: decoded.extension,
      contentType: decoded.contentType,
      bytes: decoded.bytes,
      sha256: decoded.sha256,
      pdf,
      pdfSha256: pdf ? sha256Hex(pdf) : null,
      pageCount,
    });
  } catch (err) {
    if (err instanceof DocumentError)
      return { ok: false, kind: 'document', message: err.message, threadHeapBytes: threadHeapBytes() };
    if (err instanceof ConversionUnavailableError)
      return { ok: false, kind: 'unavailable', message: err.message, threadHeapBytes: threadHeapBytes() };
    throw err;
  }
}
