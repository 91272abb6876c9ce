/**
 * `start()`, tried again after a failure `retryable` accepts, `attempts` times in all: for servers whose
 * start can fail for a reason of the moment (a port taken meanwhile, a JVM slower than its deadline).
 */
export async function retrying<T>(
  attempts: number,
  start: () => Promise<T>,
  retryable: (err: Error) => boolean,
  onRetry: (err: Error) => void = () => {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (err) {
      if (attempt === attempts || !retryable(err as Error)) throw err;
      onRetry(err as Error);
    }
  }
}
