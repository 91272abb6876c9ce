import { Sequelize } from 'sequelize';
import { initModels } from './models';

export function createDatabase(databaseUrl: string): Sequelize {
  const sequelize = new Sequelize(databaseUrl, {
    dialect: 'postgres',
    logging: false,
    pool: { max: 10, min: 0, idle: 10_000, acquire: 10_000 },
    define: { underscored: true, timestamps: true },
  });
  initModels(sequelize);
  return sequelize;
}
