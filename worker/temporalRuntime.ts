import { Runtime, type LogLevel, type LogMetadata } from '@temporalio/worker';
import type { Logger } from '../src/logger';
import { portTaken } from '../src/setupErrors';

const LEVELS: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/**
 * The SDK warns of a worker that polls no workflow tasks; the media workers run only activities on purpose,
 * so for them it is not something an operator should act on.
 */
const ACTIVITIES_ONLY = 'No workflows registered, not polling for workflow tasks';

const levelOf = (level: LogLevel, message: string) => (message === ACTIVITIES_ONLY ? 'info' : LEVELS[level]);

let installed = false;

/**
 * The SDK runtime, once per process: its logs go to pino (under `temporal`, warnings and up unless LOG_LEVEL
 * is debug, so the bundler's chatter stays out), and it installs no signal handlers, because the process's own
 * shutdown drains HTTP before it stops the worker. With `metricsAddress`, the SDK serves its worker
 * metrics there, named as the API's are (seconds, `_total` counters).
 */
export function installTemporalRuntime(logger: Logger, metricsAddress?: string): void {
  if (installed) return;
  installed = true;
  // Never more than LOG_LEVEL lets through: `error`, `fatal` or `silent` quiet the SDK too.
  const level = logger.isLevelEnabled('debug')
    ? 'debug'
    : logger.isLevelEnabled('warn')
      ? 'warn'
      : logger.level;
  const log = logger.child({ component: 'temporal' }, { level });
  try {
    Runtime.install({
      shutdownSignals: [],
      ...(metricsAddress && {
        telemetryOptions: {
          metrics: {
            prometheus: {
              bindAddress: metricsAddress,
              countersTotalSuffix: true,
              unitSuffix: true,
              useSecondsForDurations: true,
            },
          },
        },
      }),
      logger: {
        log: (level: LogLevel, message: string, meta?: LogMetadata) =>
          log[levelOf(level, message)](meta ?? {}, message),
        trace: (message: string, meta?: LogMetadata) => log.trace(meta ?? {}, message),
        debug: (message: string, meta?: LogMetadata) => log.debug(meta ?? {}, message),
        info: (message: string, meta?: LogMetadata) => log.info(meta ?? {}, message),
        warn: (message: string, meta?: LogMetadata) => log[levelOf('WARN', message)](meta ?? {}, message),
        error: (message: string, meta?: LogMetadata) => log.error(meta ?? {}, message),
      },
    });
    // The runtime starts at its first use; started here, a metrics port that another process holds
    // stops the worker by name rather than as a failed connection to Temporal.
    Runtime.instance();
  } catch (err) {
    if (metricsAddress && /Address already in use/.test(String((err as Error)?.message)))
      throw portTaken(
        "The worker's metrics",
        Number(metricsAddress.slice(metricsAddress.lastIndexOf(':') + 1)),
        'WORKER_METRICS_ADDRESS',
      );
    throw err;
  }
}
