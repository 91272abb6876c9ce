import type { Sequelize } from 'sequelize';
import { ConfigError, type IdentityConfig } from '../config';
import type { IdentityProvider } from './providers';
import { SandboxIdentityProvider } from './sandboxProvider';

/** The provider IDENTITY_PROVIDER names. */
export function createIdentityProvider(config: IdentityConfig, sequelize: Sequelize): IdentityProvider {
  switch (config.provider) {
    case 'sandbox':
      if (config.refuseSandbox)
        throw new ConfigError(
          'IDENTITY_PROVIDER is the sandbox, whose test identities pass on purpose: in production set ' +
            'ALLOW_SANDBOX_IDENTITY=true only for a staging deployment',
        );
      return new SandboxIdentityProvider(sequelize);
  }
}
