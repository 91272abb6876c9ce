/**
 * Runs in the worker's finalization threads: pdf-lib's reading, stamping and writing of one document,
 * off the event loop that heartbeats and runs the sessions' workflows, under the thread's own heap limit.
 */
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { notarizePdf, type NotarialActContext } from './notarize';
import { asBuffer, ownsItsMemory } from '../documents/movableBytes';
import { threadHeapBytes, type ThreadTaskOutcome } from '../infra/recyclingThreadPool';

export interface NotarizeTask {
  /** The document's PDF, moved to the thread when it owns its memory. */
  pdf: Uint8Array;
  context: NotarialActContext;
  p12: Uint8Array;
  passphrase: string;
}

export interface NotarizeOutcome extends ThreadTaskOutcome {
  signed: Uint8Array;
}

export default async function notarizeInThread(task: NotarizeTask) {
  // Buffers arrive as plain Uint8Arrays; the signers read them as Buffers.
  const signed = await notarizePdf(
    asBuffer(task.pdf),
    { ...task.context, sealPng: asBuffer(task.context.sealPng) },
    { p12: asBuffer(task.p12), passphrase: task.passphrase },
  );
  const outcome: NotarizeOutcome = { signed, threadHeapBytes: threadHeapBytes() };
  if (!ownsItsMemory(signed)) return outcome;
  return move({ [transferableSymbol]: [signed.buffer], [valueSymbol]: outcome });
}
