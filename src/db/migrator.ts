import path from 'node:path';
import type { Sequelize } from 'sequelize';
import { SequelizeStorage, Umzug } from 'umzug';
import { exclusively } from './exclusively';

export interface MigrationContext {
  sequelize: Sequelize;
}

export type Migration = (ctx: MigrationContext) => Promise<void>;

// The repository root from src/db (tsx) or dist/src/db (compiled): migrations/ sits beside src/.
const MIGRATIONS_DIR = path.join(__dirname, '..', '..', 'migrations');

/** Forward-only migrations: each file exports `up` and nothing else. */
export function createMigrator(sequelize: Sequelize) {
  return new Umzug<MigrationContext>({
    migrations: {
      glob: ['*.{js,ts}', { cwd: MIGRATIONS_DIR, ignore: ['*.d.ts'] }],
      resolve: ({ name, path: file, context }) => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const migration = require(file!) as { up: Migration };
        return { name: name.replace(/\.(js|ts)$/, ''), up: () => migration.up(context) };
      },
    },
    context: { sequelize },
    storage: new SequelizeStorage({ sequelize, tableName: 'schema_migrations' }),
    logger: undefined,
  });
}

export async function migrate(sequelize: Sequelize): Promise<string[]> {
  const applied = await createMigrator(sequelize).up();
  return applied.map((m) => m.name);
}

// Any constant shared by every instance: API replicas starting together migrate one at a time.
const MIGRATION_LOCK = 727_274_001;

/** Runs pending migrations under a PostgreSQL advisory lock, so concurrent starts cannot race. */
export function migrateExclusively(sequelize: Sequelize): Promise<string[]> {
  return exclusively(sequelize, MIGRATION_LOCK, () => migrate(sequelize));
}
