import type { MigrationContext } from '../src/db/migrator';

/**
 * An operator removes a network notary or witness (a commission revoked, a person who left): the row stays,
 * as their past acts name it, with when and why they were removed; a removal always says why.
 */
export async function up({ sequelize }: MigrationContext): Promise<void> {
  for (const table of ['network_notaries', 'network_witnesses'])
    await sequelize.query(`
      ALTER TABLE ${table} ADD COLUMN removed_at timestamptz, ADD COLUMN removed_reason text,
        ADD CONSTRAINT ${table}_removal_says_why
          CHECK ((removed_at IS NULL) = (removed_reason IS NULL) AND length(removed_reason) > 0);`);
}
