import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { Transaction } from 'sequelize';
import { execute, queryRows } from '../../src/db/query';
import { inTransaction } from '../../src/db/transaction';
import { testEnvironment } from '../support/environment';

const backendPid = async (transaction: Transaction) => {
  const { sequelize } = testEnvironment().runtime;
  const [row] = await queryRows<{ pid: number }>(sequelize, 'SELECT pg_backend_pid() AS pid', {
    transaction,
  });
  return row.pid;
};

/** A table of the transaction's own whose unique key is checked at COMMIT. */
const TABLE = 'CREATE TEMP TABLE written (id int UNIQUE DEFERRABLE INITIALLY DEFERRED) ON COMMIT DROP';

async function accountsNamed(name: string): Promise<number> {
  const { sequelize } = testEnvironment().runtime;
  const [{ count }] = await queryRows<{ count: number }>(
    sequelize,
    'SELECT count(*)::int AS count FROM accounts WHERE name = $1',
    { bind: [name] },
  );
  return count;
}

describe('transactions', () => {
  it('commit the work and answer its value', async () => {
    const { sequelize } = testEnvironment().runtime;
    const name = `committed by the transactions test ${crypto.randomUUID()}`;
    const answer = await inTransaction(sequelize, async (transaction) => {
      await execute(sequelize, 'INSERT INTO accounts (name) VALUES ($1)', { bind: [name], transaction });
      return 'the answer';
    });
    assert.equal(answer, 'the answer');
    assert.equal(await accountsNamed(name), 1);
  });

  it('roll back when the work throws, answer its error, and refuse statements after', async () => {
    const { sequelize } = testEnvironment().runtime;
    const name = `rolled back by the transactions test ${crypto.randomUUID()}`;
    const ended: { transaction?: Transaction } = {};
    await assert.rejects(
      inTransaction(sequelize, async (transaction) => {
        ended.transaction = transaction;
        await execute(sequelize, 'INSERT INTO accounts (name) VALUES ($1)', { bind: [name], transaction });
        throw new Error('the work failed');
      }),
      /the work failed/,
    );
    assert.equal(await accountsNamed(name), 0);
    await assert.rejects(
      queryRows(sequelize, 'SELECT 1', { transaction: ended.transaction }),
      /already ended/,
    );
  });

  it('answer a failed COMMIT, and drop its connection', async () => {
    const { sequelize } = testEnvironment().runtime;
    let pid = 0;
    await assert.rejects(
      inTransaction(sequelize, async (transaction) => {
        pid = await backendPid(transaction);
        await execute(sequelize, TABLE, { transaction });
        // A deferred unique constraint is checked at COMMIT, which fails.
        await execute(sequelize, 'INSERT INTO written VALUES (1), (1)', { transaction });
      }),
      /duplicate key/,
    );
    const [{ alive }] = await queryRows<{ alive: number }>(
      sequelize,
      'SELECT count(*)::int AS alive FROM pg_stat_activity WHERE pid = $1 AND state IS NOT NULL',
      { bind: [pid] },
    );
    assert.equal(alive, 0, 'the connection whose COMMIT failed is not pooled again');
  });

  it('never hand out again a connection lost in the middle of the work', async () => {
    const { sequelize } = testEnvironment().runtime;
    await assert.rejects(
      inTransaction(sequelize, async (transaction) => {
        await execute(sequelize, 'SELECT pg_terminate_backend(pg_backend_pid())', { transaction });
      }),
    );
    // More transactions than the pool holds connections: none of them is given the dead one.
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        inTransaction(sequelize, (transaction) => queryRows(sequelize, 'SELECT 1 AS one', { transaction })),
      ),
    );
    assert.deepEqual(
      answers.map(([row]) => row),
      Array.from({ length: 20 }, () => ({ one: 1 })),
    );
  });
});
