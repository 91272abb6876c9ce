import type { MigrationContext } from '../src/db/migrator';

/**
 * A completed session keeps its notary as they were at the act: name, state, county, commission and seal.
 * The certificate states them; read live at finalization, a commission renewed between the act and a
 * finalization retried later would be stated for an act it did not cover. Sessions completed before this
 * have none and are certified from the live facts, as before.
 */
export async function up({ sequelize }: MigrationContext): Promise<void> {
  await sequelize.query('ALTER TABLE sessions ADD COLUMN act_notary jsonb');
}
