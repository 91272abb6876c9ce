import { inspect } from 'node:util';

/**
 * The one way tests wait for asynchronous state: `probe` is asked until `accept` holds for what it
 * returns, or the deadline passes and the test fails naming what it waited for and the last answer.
 */
export async function eventually<T>(
  probe: () => Promise<T> | T,
  accept: (value: T) => unknown,
  what: string,
  { timeoutMs = 20_000, intervalMs = 100 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value)) return value;
    if (Date.now() >= deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}; last: ${inspect(value, { depth: 4 })}`,
      );
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * Lets wall-clock time pass: for a TTL to run out, or to show that something does NOT happen in a
 * while. Never to wait for state; that is `eventually`.
 */
export const letTimePass = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
