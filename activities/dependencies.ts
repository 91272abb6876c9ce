import type { Sequelize } from 'sequelize';
import type { Config } from '../src/config';
import type { Logger } from '../src/logger';
import type { NotarizationThreads } from '../src/signing/notarizationThreads';

export interface ActivityDependencies {
  config: Config;
  logger: Logger;
  sequelize: Sequelize;
  finalization: NotarizationThreads;
}
