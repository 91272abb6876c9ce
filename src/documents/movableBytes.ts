import { move, transferableSymbol, valueSymbol } from 'piscina';

/**
 * Whether bytes can move between threads (their ArrayBuffer transferred, not copied): only when the
 * buffer is theirs alone. A Buffer smaller than half of Buffer.poolSize may share Node's pool, which must
 * never move; anything larger than the pool has its own.
 */
export const ownsItsMemory = (bytes: Uint8Array) => bytes.byteLength > Buffer.poolSize;

/** A Buffer over the same memory, not a copy. */
export const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * A thread task's outcome with these bytes moved back to the caller's thread, not copied: those that own
 * their memory (the rest are copied with the outcome).
 */
export function movingBytes<Outcome extends object>(outcome: Outcome, bytes: Array<Uint8Array | null>) {
  const owned = bytes.filter((b): b is Uint8Array => !!b && ownsItsMemory(b));
  return move({ [transferableSymbol]: owned.map((b) => b.buffer), [valueSymbol]: outcome });
}
