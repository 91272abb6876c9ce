/**
 * Whether bytes can move between threads (their ArrayBuffer transferred, not copied): only when the
 * buffer is theirs alone. A Buffer smaller than half of Buffer.poolSize may share Node's pool, which must
 * never move; anything larger than the pool has its own.
 */
export const ownsItsMemory = (bytes: Uint8Array) => bytes.byteLength > Buffer.poolSize;

/** A Buffer over the same memory, not a copy. */
export const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
