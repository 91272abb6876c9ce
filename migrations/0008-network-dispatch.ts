import type { MigrationContext } from '../src/db/migrator';

/**
 * The on-demand network dispatches to people who log in:
 * - `notary_offers`: a session waiting with its signer offers itself to one network notary at a time;
 *   a notary holds at most one open offer and a session makes at most one, so "first to accept wins"
 *   is the workflow's single accept of its single open offer;
 * - `network_witnesses`, assigned to sessions with `number_of_service_witnesses`; each assignment is a
 *   witness participant of the session (no signing URL: `network_witness_id` says who it is);
 * - `network_login_links`: 12-hour login links for network notaries and witnesses, like team members'.
 */
export async function up({ sequelize }: MigrationContext): Promise<void> {
  await sequelize.query(`
    CREATE TABLE network_witnesses (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      email text NOT NULL,
      first_name text NOT NULL,
      last_name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX network_witnesses_email_lower ON network_witnesses (lower(email));

    CREATE TABLE notary_offers (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      notary_id uuid NOT NULL REFERENCES network_notaries (id) ON DELETE CASCADE,
      offered_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      outcome text NOT NULL DEFAULT 'open'
        CHECK (outcome IN ('open', 'accepted', 'expired', 'withdrawn', 'released')),
      decided_at timestamptz
    );
    CREATE UNIQUE INDEX notary_offers_open_per_notary ON notary_offers (notary_id) WHERE outcome = 'open';
    CREATE UNIQUE INDEX notary_offers_open_per_session ON notary_offers (session_id) WHERE outcome = 'open';
    CREATE INDEX notary_offers_session_notary ON notary_offers (session_id, notary_id);
    CREATE INDEX notary_offers_notary_offered ON notary_offers (notary_id, offered_at DESC);
    CREATE INDEX sessions_network_notary ON sessions (network_notary_id) WHERE network_notary_id IS NOT NULL;

    ALTER TABLE participants ADD COLUMN network_witness_id uuid REFERENCES network_witnesses (id);
    -- A network witness signs in with their own login, never through a signing link.
    ALTER TABLE participants ALTER COLUMN token_hash DROP NOT NULL;
    ALTER TABLE participants ADD CONSTRAINT participants_link_or_network_witness
      CHECK ((token_hash IS NULL) = (network_witness_id IS NOT NULL));
    CREATE UNIQUE INDEX participants_session_network_witness
      ON participants (session_id, network_witness_id) WHERE network_witness_id IS NOT NULL;
    CREATE INDEX participants_network_witness ON participants (network_witness_id)
      WHERE network_witness_id IS NOT NULL;

    CREATE TABLE network_login_links (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      notary_id uuid REFERENCES network_notaries (id) ON DELETE CASCADE,
      witness_id uuid REFERENCES network_witnesses (id) ON DELETE CASCADE,
      key_hash bytea NOT NULL,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((notary_id IS NULL) <> (witness_id IS NULL))
    );
    CREATE INDEX network_login_links_expires ON network_login_links (expires_at);
  `);
}
