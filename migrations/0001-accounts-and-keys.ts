import type { MigrationContext } from '../src/db/migrator';

export async function up({ sequelize }: MigrationContext): Promise<void> {
  await sequelize.query(`
    CREATE TABLE accounts (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL,
      auto_onboarding boolean NOT NULL DEFAULT false,
      white_label_base_url text,
      completion_redirect_url text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE users (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      email text NOT NULL,
      first_name text NOT NULL,
      last_name text NOT NULL,
      password_hash text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX users_email_lower ON users (lower(email));

    -- A user's link to a vendor account; soft-deleted on unlink so history stays.
    CREATE TABLE account_members (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users (id),
      business_role text NOT NULL CHECK (business_role IN ('notary', 'pretagger', 'admin')),
      is_owner boolean NOT NULL DEFAULT false,
      deleted_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX account_members_active ON account_members (account_id, user_id) WHERE deleted_at IS NULL;

    -- Keys are shown once; only a SHA-256 of the secret part is kept, found by its public prefix.
    CREATE TABLE api_keys (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('api', 'vendor')),
      prefix text NOT NULL,
      secret_hash bytea NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz
    );
    CREATE UNIQUE INDEX api_keys_prefix ON api_keys (prefix);
    CREATE INDEX api_keys_account_kind ON api_keys (account_id, kind) WHERE revoked_at IS NULL;

    -- Rotating refresh tokens: each use spends one and issues the next of the same family.
    CREATE TABLE refresh_tokens (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      family_id uuid NOT NULL,
      api_key_id uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
      token_hash bytea NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX refresh_tokens_hash ON refresh_tokens (token_hash);
    CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);

    -- The service's on-demand network: notaries that belong to no account.
    CREATE TABLE network_notaries (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      email text NOT NULL,
      first_name text NOT NULL,
      last_name text NOT NULL,
      state text NOT NULL,
      commission_number text NOT NULL,
      commission_expires_on date NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX network_notaries_email_lower ON network_notaries (lower(email));
  `);
}
