import type { Sequelize } from 'sequelize';
import { inTransaction } from './transaction';

/**
 * Runs `work` while holding a PostgreSQL advisory lock, in a transaction that ends with it: processes
 * starting together (API replicas, workers) take turns at a start-up step that must not run twice at once.
 */
export function exclusively<T>(sequelize: Sequelize, lock: number, work: () => Promise<T>): Promise<T> {
  return inTransaction(sequelize, async (transaction) => {
    await sequelize.query('SELECT pg_advisory_xact_lock(:lock)', { replacements: { lock }, transaction });
    return work();
  });
}
