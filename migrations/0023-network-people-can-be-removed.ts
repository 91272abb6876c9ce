import type { MigrationContext } from '../src/db/migrator';

/**
 * An operator removes a network notary or witness (a commission revoked, a person who left): the row stays,
 * as their past acts name it, with when and why they were removed; a removal always says why. One e-mail
 * names one person in the network at a time, so a person removed may be added again, as a new row.
 */
export async function up({ sequelize }: MigrationContext): Promise<void> {
  for (const table of ['network_notaries', 'network_witnesses'])
    await sequelize.query(`
      ALTER TABLE ${table} ADD COLUMN removed_at timestamptz, ADD COLUMN removed_reason text,
        ADD CONSTRAINT ${table}_removal_says_why
          CHECK ((removed_at IS NULL) = (removed_reason IS NULL) AND length(removed_reason) > 0);
      DROP INDEX ${table}_email_lower;
      CREATE UNIQUE INDEX ${table}_email_lower ON ${table} (lower(email)) WHERE removed_at IS NULL;`);
}
