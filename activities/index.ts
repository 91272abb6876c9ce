import type { Sequelize } from 'sequelize';
import type { Config } from '../src/config';
import type { Logger } from '../src/logger';

export interface ActivityDependencies {
  config: Config;
  logger: Logger;
  sequelize: Sequelize;
}

/**
 * Activities are built from their dependencies, so the worker, the tests and a replay all wire them the
 * same way; each one is thin I/O and idempotent, since Temporal may run it more than once.
 */
export function createActivities(deps: ActivityDependencies) {
  void deps;
  return {};
}

export type Activities = ReturnType<typeof createActivities>;
