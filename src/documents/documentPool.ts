import { RecyclingThreadPool } from '../threads/recyclingThreadPool';
import { DocumentError } from './documentError';
import {
  ConversionUnavailableError,
  convertsThroughLibreOffice,
  removeAbandonedConversions,
} from './convert';
import type { PrepareOutcome, PrepareTask, PreparedDocument } from './documentWorker';
import type { Base64Upload } from './base64Upload';
import { checkDocument, uploadBytes } from './decode';
import { cannotInflatePastLimit } from './documentLimits';
import { plainPdfPageCount } from './pdfStructure';
import { asBuffer, ownsItsMemory } from './movableBytes';

/** A prepared document whose bytes are Buffers over the memory the thread handed over, not copies. */
export interface PreparedUploadBytes extends PreparedDocument {
  bytes: Buffer;
  pdf: Buffer | null;
}

export interface DocumentPoolOptions {
  threads: number;
  /** Threads of the DOCX lane; each waits on one LibreOffice process. */
  conversionThreads: number;
  /** Heap of one worker; a document that needs more is refused, not the process. */
  memoryMb: number;
  /** One document's work; past it the caller gets a retryable `unavailable`. */
  timeoutMs: number;
  /** LibreOffice, for DOCX. */
  soffice: string;
}

/** A small PDF asks for more than its page tree: the document threads must check it. */
class NeedsThread extends Error {}

/**
 * A PDF too small to pass the inflation limit, checked on the caller's thread when its structure is plain and
 * needs no stream decoded: its size bounds the work (one pass over at most about 127 KB), which costs less
 * than the hand-off to a document thread and back. What that pass can judge is answered at once, a refusal
 * too (bytes that are not a PDF, too many pages); anything else goes to the threads: another format, a larger
 * file, object or cross-reference streams, a file pdf-lib would have to recover, an encrypted one.
 */
async function checkSmallPlainPdf(
  name: string,
  bytes: Buffer,
  label: string,
): Promise<PreparedUploadBytes | undefined> {
  if (!/\.pdf$/i.test(name) || !cannotInflatePastLimit(bytes)) return undefined;
  try {
    const decoded = await checkDocument(name, bytes, label, async (pdf) => {
      const pages = await plainPdfPageCount(pdf, { decodeStreams: false });
      if (pages === undefined) throw new NeedsThread();
      return pages;
    });
    return { ...decoded, pdf: null, pdfSha256: null, pageCount: decoded.pageCount! };
  } catch (err) {
    if (err instanceof NeedsThread) return undefined;
    throw err;
  }
}

/** The pool's answer when a document took too long: the service's limit, so a retry may pass. */
export class DocumentWorkTimeout extends Error {}

/**
 * Worker threads that prepare uploads, so a hostile or merely heavy document costs one bounded worker
 * (memory, time) and never the API's event loop. DOCX go to a lane of their own: each holds its thread
 * for the seconds LibreOffice takes, and in a shared pool a few of them left every other upload waiting.
 */
export class DocumentPool {
  private readonly checks: RecyclingThreadPool<PrepareTask, PrepareOutcome>;
  private readonly conversions: RecyclingThreadPool<PrepareTask, PrepareOutcome>;

  constructor(private readonly options: DocumentPoolOptions) {
    this.checks = new RecyclingThreadPool({
      directory: __dirname,
      module: 'documentWorker',
      // One thread stays warm: the first upload after a quiet spell does not pay for a thread's start.
      minThreads: 1,
      maxThreads: options.threads,
      memoryMb: options.memoryMb,
    });
    this.conversions = new RecyclingThreadPool({
      directory: __dirname,
      module: 'documentWorker',
      // A thread's start is nothing beside a conversion's seconds: none is kept while no DOCX comes.
      minThreads: 0,
      maxThreads: options.conversionThreads,
      memoryMb: options.memoryMb,
    });
    // What a process that died mid-conversion left, before this one converts anything.
    removeAbandonedConversions();
  }

  /**
   * Checks and converts one upload; its bytes move to the document thread and back, never copied. The
   * lane follows the name: bytes that are not what it says are refused in either.
   */
  async prepare(name: string, upload: Base64Upload, label: string): Promise<PreparedUploadBytes> {
    const bytes = uploadBytes(upload, label);
    const checkedHere = await checkSmallPlainPdf(name, bytes, label);
    if (checkedHere) return checkedHere;
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const task: PrepareTask = {
      name,
      bytes,
      label,
      libreOffice: { path: this.options.soffice, deadline: Date.now() + this.options.timeoutMs },
    };
    let outcome: PrepareOutcome;
    try {
      const lane = convertsThroughLibreOffice(name) ? this.conversions : this.checks;
      outcome = await lane.run(task, {
        signal: timeout,
        transferList: ownsItsMemory(bytes) ? [bytes.buffer as ArrayBuffer] : [],
      });
    } catch (err) {
      if (timeout.aborted)
        throw new DocumentWorkTimeout(`${label} took longer than ${this.options.timeoutMs} ms`);
      if ((err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY')
        throw new DocumentError(`${label}.base64Doc cannot be processed within the service's memory limit`);
      throw err;
    }
    if (outcome.ok) {
      const { document } = outcome;
      return { ...document, bytes: asBuffer(document.bytes), pdf: document.pdf && asBuffer(document.pdf) };
    }
    if (outcome.kind === 'document') throw new DocumentError(outcome.message);
    throw new ConversionUnavailableError(outcome.message);
  }

  async close(): Promise<void> {
    await Promise.all([this.checks.close(), this.conversions.close()]);
  }
}
