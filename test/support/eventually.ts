import { inspect } from 'node:util';

/** How long one probe may take past the deadline (a slow request on a loaded machine) before it is stuck. */
const PROBE_GRACE_MS = 30_000;

/** A probe that never answers (a browser's getStats, a request to a stuck process) fails by name. */
async function answered<T>(value: Promise<T> | T, by: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`a probe for ${what} had not answered ${PROBE_GRACE_MS} ms past its deadline`)),
      Math.max(0, by - Date.now()),
    );
  });
  try {
    return await Promise.race([value, stuck]);
  } finally {
    clearTimeout(timer);
  }
}

/** The waits now running: a test that runs out of time in mocha names what it was still waiting for. */
const waiting = new Map<symbol, { what: string; since: number; last?: unknown }>();

/** What each `eventually` begun at or after `since` (ms) and still running waits for, and its last answer. */
export function pendingWaits(since: number): string[] {
  return [...waiting.values()]
    .filter((w) => w.since >= since)
    .map(
      (w) =>
        `${w.what} (for ${Math.round((Date.now() - w.since) / 1000)} s; last: ${inspect(w.last, { depth: 2, breakLength: Infinity })})`,
    );
}

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
  const key = Symbol(what);
  const wait: { what: string; since: number; last?: unknown } = { what, since: Date.now() };
  waiting.set(key, wait);
  try {
    for (;;) {
      const value = await answered(probe(), Math.max(deadline, Date.now()) + PROBE_GRACE_MS, what);
      if (accept(value)) return value;
      wait.last = value;
      if (Date.now() >= deadline)
        throw new Error(
          `timed out after ${timeoutMs} ms waiting for ${what}; last: ${inspect(value, { depth: 4 })}`,
        );
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  } finally {
    waiting.delete(key);
  }
}

/**
 * Lets wall-clock time pass: for a TTL to run out, or to show that something does NOT happen in a
 * while. Never to wait for state; that is `eventually`.
 */
export const letTimePass = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
