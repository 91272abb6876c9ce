import { ConfigError } from './configError';
import type { Logger } from './logger';
import { operatorLine } from './setupErrors';

/**
 * The environment the API and the worker run with in production (the Dockerfile and the npm start
 * scripts set the same): glibc gives each thread that allocates its own malloc arena, and the worker's
 * many threads (Temporal's core, libuv, V8) leave each arena fragmented, so RSS stays far above what is
 * in use. Two arenas keep it close. Read by glibc at start-up, so it is set for the process, not from
 * inside it.
 */
export const PRODUCTION_PROCESS_ENV = { MALLOC_ARENA_MAX: '2' } as const;

/**
 * Node's options for the worker in production (docker-compose and `npm run start:worker` pass the same). V8
 * sizes each isolate's heap limit from the machine's memory and lets the heap grow toward it before
 * collecting in earnest, so the heap of a worker with parked sessions is mostly garbage. A limit per isolate
 * (the workflow threads take the process's V8 flags) makes V8 collect sooner at the same CPU per session, and
 * still leaves the live heap several times its room (docs/operations.md).
 */
export const WORKER_NODE_ARGS = ['--max-old-space-size=256'] as const;

/** Node's options for an entry point in `dist/scripts/`, as production starts it. */
export const productionNodeArgs = (script: string): readonly string[] =>
  script === 'start-worker.js' ? WORKER_NODE_ARGS : [];

/**
 * Stops gracefully on the first SIGINT/SIGTERM and exits; a second signal exits at once. Exits non-zero
 * when `untilFailure` settles first (e.g. the worker died), so a supervisor restarts the process.
 */
export function stopOnSignals(
  logger: Logger,
  stop: () => Promise<void>,
  untilFailure?: Promise<unknown>,
): void {
  let stopping = false;
  const shutdown = async (reason: string, exitCode: number) => {
    if (stopping) {
      logger.warn('second signal: exiting immediately');
      process.exit(1);
    }
    stopping = true;
    logger.info({ reason }, 'shutting down');
    try {
      await stop();
      logger.info('stopped');
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      exitCode = 1;
    }
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void shutdown('SIGINT', 0));
  process.on('SIGTERM', () => void shutdown('SIGTERM', 0));
  untilFailure?.then(
    () => {
      if (!stopping) void shutdown('worker stopped unexpectedly', 1);
    },
    (err: unknown) => {
      if (stopping) return;
      logger.error({ err }, 'worker failed');
      void shutdown('worker failed', 1);
    },
  );
}

/**
 * Runs an entry point; a failure prints one line (what failed and what to do, for setup errors) and exits
 * 1. LOG_LEVEL=debug prints the stack instead.
 */
export function runMain(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    const line =
      err instanceof ConfigError ? err.message : operatorLine(err, process.env.LOG_LEVEL === 'debug');
    process.stderr.write(`${line}\n`);
    process.exit(1);
  });
}
