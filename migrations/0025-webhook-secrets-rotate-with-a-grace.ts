import type { MigrationContext } from '../src/db/migrator';

/**
 * A webhook endpoint's secret can be replaced while the old one keeps signing beside it until
 * `previous_secret_expires_at`, so a receiver moves to the new one without a delivery it cannot verify.
 */
export async function up({ sequelize }: MigrationContext): Promise<void> {
  await sequelize.query(`
    ALTER TABLE webhook_endpoints
      ADD COLUMN previous_secret text,
      ADD COLUMN previous_secret_expires_at timestamptz,
      ADD CONSTRAINT webhook_endpoints_previous_secret_expires
        CHECK ((previous_secret IS NULL) = (previous_secret_expires_at IS NULL));`);
}
