import type { MigrationContext } from '../src/db/migrator';

/**
 * Failures that end a delivery are recorded where an operator and the integrator can see them:
 * - an e-mail the receiving server refused for good is `bounced` (its reason in `error`), and the
 *   session goes on without it;
 * - a document that could not be notarized keeps the reason in `finalization_error` until an
 *   operator's retry succeeds.
 */
export async function up({ sequelize }: MigrationContext): Promise<void> {
  await sequelize.query(`
    ALTER TABLE email_outbox DROP CONSTRAINT email_outbox_state_check;
    ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_state_check
      CHECK (state IN ('held', 'pending', 'sent', 'failed', 'bounced'));
    ALTER TABLE documents ADD COLUMN finalization_error text;
  `);
}
