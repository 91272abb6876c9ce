import type { NotarialActContext } from './notarize';
import type { NotarizeOutcome, NotarizeTask } from './notarizeThread';
import type { DigitalId } from './digitalId';
import { asBuffer, ownsItsMemory } from '../documents/movableBytes';
import { RecyclingThreadPool } from '../threads/recyclingThreadPool';

export interface NotarizationThreadsOptions {
  threads: number;
  /** Heap of one thread; a document that needs more fails its attempt, not the worker. */
  memoryMb: number;
}

/**
 * Worker threads that produce the notarized PDFs. The worker's own heap then holds sessions, not
 * documents: a document that outgrows its thread fails that attempt (retried, then reported as not
 * finalized) instead of taking the worker and every session on it down, and what pdf-lib keeps of each
 * document goes with the thread it ran on.
 */
export class NotarizationThreads {
  private readonly pool: RecyclingThreadPool<NotarizeTask, NotarizeOutcome>;

  constructor(options: NotarizationThreadsOptions) {
    this.pool = new RecyclingThreadPool({
      directory: __dirname,
      module: 'notarizeThread',
      // None while no session finalizes: a worker holding thousands of waiting sessions keeps no thread.
      minThreads: 0,
      maxThreads: options.threads,
      memoryMb: options.memoryMb,
    });
  }

  /** The signed PDF; `signal` (the activity's cancellation) stops the thread's work. */
  async notarize(
    pdf: Buffer,
    context: NotarialActContext,
    identity: DigitalId,
    signal: AbortSignal,
  ): Promise<Buffer> {
    const task: NotarizeTask = { pdf, context, p12: identity.p12, passphrase: identity.passphrase };
    let outcome: NotarizeOutcome;
    try {
      outcome = await this.pool.run(task, {
        signal,
        transferList: ownsItsMemory(pdf) ? [pdf.buffer as ArrayBuffer] : [],
      });
    } catch (err) {
      // The reason reaches the integrator (documents_failed): it says what, not how the service is built.
      if ((err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY')
        throw new Error('the document needs more memory than the service allows for one document');
      throw err;
    }
    if (!outcome.ok) throw new Error(outcome.message);
    return asBuffer(outcome.signed);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
