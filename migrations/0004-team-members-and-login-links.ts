import type { MigrationContext } from '../src/db/migrator';

export async function up({ sequelize }: MigrationContext): Promise<void> {
  await sequelize.query(`
    CREATE EXTENSION IF NOT EXISTS pg_trgm;

    -- The user's own profile: membership, vendor association, notary commission and onboarding.
    ALTER TABLE users
      ADD COLUMN membership_type text NOT NULL DEFAULT 'free' CHECK (membership_type IN ('free', 'pro')),
      ADD COLUMN vendor_account_id uuid REFERENCES accounts (id),
      ADD COLUMN business_role text CHECK (business_role IN ('notary', 'pretagger', 'admin')),
      ADD COLUMN is_child_account boolean NOT NULL DEFAULT false,
      ADD COLUMN state text,
      ADD COLUMN county text,
      ADD COLUMN commission_number text,
      ADD COLUMN commission_expires_on date,
      ADD COLUMN onboarding_status text NOT NULL DEFAULT 'pending' CHECK (onboarding_status IN ('pending', 'complete'));
    -- Case-insensitive partial e-mail search over large teams.
    CREATE INDEX users_email_trgm ON users USING gin (lower(email) gin_trgm_ops);

    -- The link between a vendor and a user; its id is the team member id. Unlinking clears the role.
    ALTER TABLE account_members
      ALTER COLUMN business_role DROP NOT NULL,
      ADD COLUMN vendor_user_id text,
      ADD COLUMN role_options jsonb,
      ADD COLUMN optional_metadata jsonb;
    CREATE INDEX account_members_account_active ON account_members (account_id, created_at DESC, id) WHERE deleted_at IS NULL;

    CREATE TABLE notary_seals (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      state text NOT NULL,
      svg text NOT NULL,
      png bytea NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX notary_seals_user ON notary_seals (user_id, created_at DESC);

    -- 12-hour auto-login links: reusable until they expire; only a hash of the key is kept.
    CREATE TABLE login_links (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      member_id uuid NOT NULL REFERENCES account_members (id) ON DELETE CASCADE,
      key_hash bytea NOT NULL,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX login_links_expires ON login_links (expires_at);
  `);
}
