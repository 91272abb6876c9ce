import type { MigrationContext } from '../src/db/migrator';

/**
 * An on-demand session keeps when it first asked the network for a notary (its signer waiting), so that a
 * notary who becomes free is offered at once to the sessions that have waited longest, not only when each
 * asks again. Sessions already waiting set it at their next attempt.
 */
export async function up({ sequelize }: MigrationContext): Promise<void> {
  await sequelize.query(`
    ALTER TABLE sessions ADD COLUMN notary_sought_since timestamptz;
    CREATE INDEX sessions_seeking_a_notary ON sessions (notary_sought_since, id)
      WHERE status = 'awaiting_notary' AND notary_sought_since IS NOT NULL;`);
}
