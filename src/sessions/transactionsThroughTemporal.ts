import pLimit from 'p-limit';
import type { Sequelize, Transaction } from 'sequelize';
import { inTransaction } from '../db/transaction';
import type { TemporalHandle } from '../temporal/client';
import { DATABASE_POOL_MAX } from '../db/database';
import { refuseWhileTemporalUnreachable } from './sessionWorkflows';

/**
 * Transactions that call Temporal before they commit (a create, an addition of documents) hold their
 * connection through the call, so they take at most all but two of the process's: while Temporal is slow
 * or unreachable, requests that need only PostgreSQL still have two to run on. Each is refused at once
 * while Temporal is known down.
 */
export class TransactionsThroughTemporal {
  private readonly limit = pLimit(DATABASE_POOL_MAX - 2);

  constructor(
    private readonly sequelize: Sequelize,
    private readonly temporal: TemporalHandle,
  ) {}

  run<T>(work: (transaction: Transaction) => Promise<T>): Promise<T> {
    return this.limit(() =>
      inTransaction(this.sequelize, async (transaction) => {
        refuseWhileTemporalUnreachable(this.temporal);
        return work(transaction);
      }),
    );
  }
}
