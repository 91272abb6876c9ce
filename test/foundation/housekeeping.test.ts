import assert from 'node:assert/strict';
import { createTestAccount } from '../support/accounts';
import { testEnvironment } from '../support/environment';
import { HOUSEKEEPING_SCHEDULE } from '../../src/temporal/schedules';
import { eventually } from '../support/eventually';

describe('housekeeping Schedule', () => {
  it('is registered and deletes expired idempotency keys, keeping live ones', async function () {
    this.timeout(30_000);
    const { sequelize, temporal } = testEnvironment().runtime;
    const account = await createTestAccount();
    await sequelize.query(
      `INSERT INTO idempotency_keys (account_id, principal, key, fingerprint, state, expires_at) VALUES
         ($1, 'api:test', 'old', 'x', 'completed', now() - interval '1 minute'),
         ($1, 'api:test', 'live', 'x', 'completed', now() + interval '1 hour')`,
      { bind: [account.account_id] },
    );
    const schedule = temporal.client.schedule.getHandle(HOUSEKEEPING_SCHEDULE);
    assert.equal((await schedule.describe()).action.type, 'startWorkflow');
    await schedule.trigger();
    const keys = async () =>
      (
        (await sequelize.query('SELECT key FROM idempotency_keys WHERE account_id = $1 ORDER BY key', {
          bind: [account.account_id],
        })) as [Array<{ key: string }>, unknown]
      )[0].map((r) => r.key);
    assert.deepEqual(await eventually(keys, (k) => !k.includes('old'), 'the expired key to be deleted'), [
      'live',
    ]);
  });
});
