import type { MigrationContext } from '../src/db/migrator';

/**
 * Tenant isolation. A user row was shared by every vendor that linked the person, and each invite
 * rewrote its names, role and notary commission, so one vendor could change what another vendor's
 * certificates said. From here on:
 * - what a vendor sends at invite (names, role, options, metadata) lives on its own membership;
 * - a notary's commission is the notary's, in `notary_commissions`, written at first onboarding only;
 * - `users` keeps the person's identity alone (e-mail, password, whether a vendor invite created it).
 */
export async function up({ sequelize }: MigrationContext): Promise<void> {
  await sequelize.query(`
    ALTER TABLE account_members ADD COLUMN first_name text, ADD COLUMN last_name text;
    UPDATE account_members m SET first_name = u.first_name, last_name = u.last_name FROM users u WHERE u.id = m.user_id;
    ALTER TABLE account_members ALTER COLUMN first_name SET NOT NULL, ALTER COLUMN last_name SET NOT NULL;

    -- The notary's legal identity as commissioned: the name, venue and commission every certificate states.
    CREATE TABLE notary_commissions (
      user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      first_name text NOT NULL,
      last_name text NOT NULL,
      state text NOT NULL CHECK (state ~ '^[A-Z]{2}$'),
      county text NOT NULL,
      commission_number text NOT NULL,
      commission_expires_on date NOT NULL,
      -- Who wrote it: the vendor whose invite onboarded the notary, or the notary themself.
      onboarded_by text NOT NULL CHECK (onboarded_by IN ('vendor', 'notary')),
      onboarded_by_account_id uuid REFERENCES accounts (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    -- Only completed onboardings held a commission; the vendor recorded on the user is the last to invite.
    INSERT INTO notary_commissions (user_id, first_name, last_name, state, county, commission_number,
                                    commission_expires_on, onboarded_by, onboarded_by_account_id, created_at, updated_at)
    SELECT u.id, u.first_name, u.last_name, u.state, u.county, u.commission_number, u.commission_expires_on,
           'vendor', u.vendor_account_id, u.created_at, u.updated_at
      FROM users u
     WHERE u.onboarding_status = 'complete' AND u.state ~ '^[A-Z]{2}$' AND u.county IS NOT NULL
       AND u.commission_number IS NOT NULL AND u.commission_expires_on IS NOT NULL;

    -- Membership type, vendor and role were per-user copies of one link; they now follow from the links.
    ALTER TABLE users
      DROP COLUMN first_name,
      DROP COLUMN last_name,
      DROP COLUMN membership_type,
      DROP COLUMN vendor_account_id,
      DROP COLUMN business_role,
      DROP COLUMN state,
      DROP COLUMN county,
      DROP COLUMN commission_number,
      DROP COLUMN commission_expires_on,
      DROP COLUMN onboarding_status;

    -- The e-mail filter of the team list now matches users through their links only.
    CREATE INDEX account_members_user_active ON account_members (user_id) WHERE deleted_at IS NULL;

    -- Idempotency keys belong to the principal that sent them (an API key, or one team member), and an
    -- answer is kept sealed (AES-GCM) because it can hold live credentials. Stored answers are at most
    -- 24 hours old and were kept in clear: they are dropped rather than carried over.
    DELETE FROM idempotency_keys;
    ALTER TABLE idempotency_keys
      DROP CONSTRAINT idempotency_keys_pkey,
      ADD COLUMN principal text NOT NULL,
      DROP COLUMN response_body,
      ADD COLUMN response_sealed bytea,
      -- A claim is a lease its request keeps renewing: a crashed request's key is free again once it lapses.
      ADD COLUMN locked_until timestamptz NOT NULL DEFAULT now(),
      ADD PRIMARY KEY (account_id, principal, key);
  `);
}
