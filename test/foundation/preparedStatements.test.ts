import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { queryRows } from '../../src/db/query';
import { preparedStatement } from '../../src/db/preparedStatements';
import { storeBlob } from '../../src/documents/blobStore';
import { testEnvironment } from '../support/environment';
import { createTestAccount } from '../support/accounts';

describe('prepared statements', () => {
  it('a marked statement is prepared once on a connection and answers as before on every run', async () => {
    const { sequelize } = testEnvironment().runtime;
    const account = await createTestAccount();
    const bytes = crypto.randomBytes(64);
    const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
    await sequelize.transaction(async (transaction) => {
      const first = await storeBlob(sequelize, account.account_id, bytes, sha256, transaction);
      const again = await storeBlob(sequelize, account.account_id, bytes, sha256, transaction);
      assert.equal(again, first);
      const prepared = await queryRows<{ name: string; from_sql: boolean }>(
        sequelize,
        "SELECT name, from_sql FROM pg_prepared_statements WHERE name = 'store-blob'",
        { transaction },
      );
      assert.deepEqual(prepared, [{ name: 'store-blob', from_sql: false }]);
    });
  });

  it('an unmarked statement is not prepared', async () => {
    const { sequelize } = testEnvironment().runtime;
    await sequelize.transaction(async (transaction) => {
      await queryRows(sequelize, 'SELECT $1::int AS one', { bind: [1], transaction });
      const prepared = await queryRows<{ statement: string }>(
        sequelize,
        'SELECT statement FROM pg_prepared_statements',
        { transaction },
      );
      assert.ok(prepared.every((p) => !p.statement.includes('AS one')));
    });
  });

  it('refuses one name for two texts', () => {
    preparedStatement('test-one-name', 'SELECT 1');
    assert.doesNotThrow(() => preparedStatement('test-one-name', '  SELECT 1\n'));
    assert.throws(() => preparedStatement('test-one-name', 'SELECT 2'), /two texts/);
  });
});
