import type { Sequelize } from 'sequelize';
import type { Config } from '../src/config';
import type { Logger } from '../src/logger';

export interface ActivityDependencies {
  config: Config;
  logger: Logger;
  sequelize: Sequelize;
}
