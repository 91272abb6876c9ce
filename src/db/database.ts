import { Sequelize } from 'sequelize';
import { namePreparedStatements } from './preparedStatements';

/** Connections each process keeps to PostgreSQL at most. */
export const DATABASE_POOL_MAX = 10;

export function createDatabase(databaseUrl: string): Sequelize {
  const sequelize = new Sequelize(databaseUrl, {
    dialect: 'postgres',
    logging: false,
    pool: { max: DATABASE_POOL_MAX, min: 0, idle: 10_000, acquire: 10_000 },
  });
  namePreparedStatements(sequelize);
  return sequelize;
}
