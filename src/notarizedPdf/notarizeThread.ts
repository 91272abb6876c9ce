/**
 * Runs in the worker's finalization threads: pdf-lib's reading, stamping and writing of one document,
 * off the event loop that heartbeats and runs the sessions' workflows, under the thread's own heap limit.
 */
import { notarizePdf, type NotarialActContext } from './notarize';
import { asBuffer, movingBytes } from '../documents/movableBytes';
import { threadHeapBytes, type ThreadTaskOutcome } from '../threads/recyclingThreadPool';

export interface NotarizeTask {
  /** The document's PDF, moved to the thread when it owns its memory. */
  pdf: Uint8Array;
  context: NotarialActContext;
  p12: Uint8Array;
  passphrase: string;
}

/**
 * A failure comes back as a value too, with the thread's heap: a PDF that fails half-read has left its
 * names behind as well.
 */
export type NotarizeOutcome = ThreadTaskOutcome &
  ({ ok: true; signed: Uint8Array } | { ok: false; message: string });

export default async function notarizeInThread(task: NotarizeTask) {
  let signed: Buffer;
  try {
    // Buffers arrive as plain Uint8Arrays; the signers read them as Buffers.
    signed = await notarizePdf(
      asBuffer(task.pdf),
      { ...task.context, sealPng: asBuffer(task.context.sealPng) },
      { p12: asBuffer(task.p12), passphrase: task.passphrase },
    );
  } catch (err) {
    const outcome: NotarizeOutcome = {
      ok: false,
      message: (err as Error).message,
      threadHeapBytes: threadHeapBytes(),
    };
    return outcome;
  }
  const outcome: NotarizeOutcome = { ok: true, signed, threadHeapBytes: threadHeapBytes() };
  return movingBytes(outcome, [signed]);
}
