import type { MigrationContext } from '../src/db/migrator';

/**
 * A failed delivery says why: its schedule ran out (`retries_exhausted`), or an operator stopped its retries
 * by cancelling or terminating its workflow (`stopped_by_operator`). The integrator can tell a receiver that
 * never answered from retries cut short. Deliveries that failed before this say neither.
 */
export async function up({ sequelize }: MigrationContext): Promise<void> {
  await sequelize.query(`
    ALTER TABLE webhook_deliveries ADD COLUMN failure_reason text
      CHECK (failure_reason IN ('retries_exhausted', 'stopped_by_operator'));
  `);
}
