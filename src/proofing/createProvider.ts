import type { Sequelize } from 'sequelize';
import { type IdentityConfig } from '../config';
import { ConfigError } from '../configError';
import type { IdentityProvider } from './providers';
import { SandboxIdentityProvider } from './sandboxProvider';

/** The provider IDENTITY_PROVIDER names. */
export function createIdentityProvider(config: IdentityConfig, sequelize: Sequelize): IdentityProvider {
  switch (config.provider) {
    case 'sandbox':
      if (config.sandboxRefusal) throw new ConfigError(config.sandboxRefusal);
      return new SandboxIdentityProvider(sequelize);
  }
}
