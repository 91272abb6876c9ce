import type { Sequelize } from 'sequelize';
import { Gauge, type Registry } from 'prom-client';
import type { Logger } from '../logger';
import { notaryQueue, type NotaryQueue } from './waitingSessions';

const READ_WITHIN_MS = 3_000;

const tooSlow = () =>
  new Promise<never>((_, reject) => {
    setTimeout(
      () => reject(new Error(`no answer from PostgreSQL within ${READ_WITHIN_MS} ms`)),
      READ_WITHIN_MS,
    ).unref();
  });

/**
 * The on-demand queue at each scrape, by the state a session asks for: how many signers wait for a network
 * notary, and how long the first of them has. Every API process reports the same figures (read them with
 * `max`). A scrape that cannot read the queue leaves both out and logs why.
 */
export function registerNotaryQueueMetrics(sequelize: Sequelize, metrics: Registry, logger: Logger): void {
  // Both gauges of one scrape read one query, given less than a scraper's usual 10 s.
  let reading: Promise<NotaryQueue[]> | undefined;
  const read = () =>
    (reading ??= Promise.race([notaryQueue(sequelize), tooSlow()])
      .catch((err: unknown) => {
        logger.warn({ err }, 'the notary queue could not be read for /metrics');
        return [];
      })
      .finally(() => {
        reading = undefined;
      }));
  const gauge = (name: string, help: string, value: (row: NotaryQueue) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['state'],
      registers: [metrics],
      async collect() {
        const rows = await read();
        this.reset();
        for (const row of rows) this.set({ state: row.state }, value(row));
      },
    });
  gauge(
    'notary_queue_sessions',
    'On-demand sessions whose signer waits for a network notary, by the state asked for (any: none)',
    (row) => row.sessions,
  );
  gauge(
    'notary_queue_longest_wait_seconds',
    'How long the on-demand session waiting longest for a network notary has waited, by the state asked for',
    (row) => row.longest_wait_seconds,
  );
}
