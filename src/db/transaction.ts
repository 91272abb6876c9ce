import { Transaction, type Sequelize } from 'sequelize';

/** A pooled connection: node-postgres's client, as Sequelize's pool hands it out. */
interface PooledClient {
  query(sql: string): Promise<unknown>;
}

interface Pool {
  getConnection(): Promise<PooledClient>;
  releaseConnection(connection: PooledClient): void;
  destroyConnection(connection: PooledClient): Promise<void>;
}

/** The state `query` reads to refuse a statement on a transaction that has ended (Sequelize's field). */
type Ending = { connection: PooledClient; finished?: 'commit' | 'rollback' };

/**
 * Runs `work` in a transaction on one of Sequelize's pooled connections, as `sequelize.transaction(work)`
 * does: BEGIN, then COMMIT, or ROLLBACK when `work` throws; a connection whose BEGIN, COMMIT or ROLLBACK
 * failed is in an unknown state and is destroyed, never pooled again. The three go to node-postgres as
 * they are, like every statement (`query.ts`): Sequelize's `query` around each cost about as much CPU as
 * the statement's own round trip. `work` gets a Sequelize `Transaction`, so `sequelize.query` takes it too.
 */
export async function inTransaction<T>(
  sequelize: Sequelize,
  work: (transaction: Transaction) => Promise<T>,
): Promise<T> {
  const pool = (sequelize as unknown as { connectionManager: Pool }).connectionManager;
  const transaction = new Transaction(sequelize, {});
  const state = transaction as unknown as Ending;
  state.connection = await pool.getConnection();
  const send = async (sql: 'BEGIN' | 'COMMIT' | 'ROLLBACK') => {
    try {
      await state.connection.query(sql);
    } catch (err) {
      await pool.destroyConnection(state.connection).catch(() => undefined);
      throw err;
    }
  };
  await send('BEGIN');
  let result: T;
  try {
    result = await work(transaction);
  } catch (err) {
    state.finished = 'rollback';
    // The work's failure is the answer; a failed ROLLBACK has already dropped the connection.
    await send('ROLLBACK').then(
      () => pool.releaseConnection(state.connection),
      () => undefined,
    );
    throw err;
  }
  state.finished = 'commit';
  await send('COMMIT');
  pool.releaseConnection(state.connection);
  return result;
}
