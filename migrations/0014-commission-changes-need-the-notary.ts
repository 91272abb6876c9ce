import type { MigrationContext } from '../src/db/migrator';

/**
 * A commission is the person's, across vendors, and a vendor mints its members' login links: a change a
 * member asks for through one waits for the notary's confirmation from their own e-mail. Every change of a
 * commission is kept, with who asked for it, through which credential, and what proved it was the notary.
 * E-mails that belong to no session (the confirmation) go through the same outbox.
 */
export async function up({ sequelize }: MigrationContext): Promise<void> {
  await sequelize.query(`
    CREATE TABLE commission_changes (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid REFERENCES users (id) ON DELETE CASCADE,
      network_notary_id uuid REFERENCES network_notaries (id) ON DELETE CASCADE,
      requested_by_account_id uuid REFERENCES accounts (id) ON DELETE SET NULL,
      requested_by_member_id uuid REFERENCES account_members (id) ON DELETE SET NULL,
      credential text NOT NULL CHECK (credential IN ('login_link', 'vendor_key', 'operator', 'before_audit')),
      proof text CHECK (proof IN ('email_confirmation', 'vendor_invite', 'operator', 'before_audit')),
      before jsonb,
      after jsonb NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'applied', 'superseded')),
      confirmation_key_hash bytea,
      expires_at timestamptz,
      requested_at timestamptz NOT NULL DEFAULT now(),
      applied_at timestamptz,
      CONSTRAINT commission_changes_one_person CHECK ((user_id IS NULL) <> (network_notary_id IS NULL)),
      CONSTRAINT commission_changes_applied_has_proof CHECK (status <> 'applied' OR proof IS NOT NULL)
    );
    CREATE INDEX commission_changes_user ON commission_changes (user_id, requested_at) WHERE user_id IS NOT NULL;
    CREATE INDEX commission_changes_network ON commission_changes (network_notary_id, requested_at)
      WHERE network_notary_id IS NOT NULL;

    -- The commissions on file have no history before this: one row each says so.
    INSERT INTO commission_changes (user_id, requested_by_account_id, credential, proof, after, status,
                                    requested_at, applied_at)
    SELECT c.user_id, c.onboarded_by_account_id, 'before_audit', 'before_audit',
           jsonb_build_object('first_name', c.first_name, 'last_name', c.last_name, 'state', c.state,
                              'county', c.county, 'commission_number', c.commission_number,
                              'commission_expires_on', c.commission_expires_on),
           'applied', c.updated_at, c.updated_at
      FROM notary_commissions c;
    INSERT INTO commission_changes (network_notary_id, credential, proof, after, status, requested_at, applied_at)
    SELECT n.id, 'before_audit', 'before_audit',
           jsonb_build_object('first_name', n.first_name, 'last_name', n.last_name, 'state', n.state,
                              'commission_number', n.commission_number,
                              'commission_expires_on', n.commission_expires_on),
           'applied', n.updated_at, n.updated_at
      FROM network_notaries n;

    ALTER TABLE email_outbox ALTER COLUMN session_id DROP NOT NULL;
    ALTER TABLE email_outbox DROP CONSTRAINT email_outbox_kind_check;
    ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_kind_check
      CHECK (kind IN ('invitation', 'completion', 'commission_confirmation'));
  `);
}
