import type { MigrationContext } from '../src/db/migrator';

export async function up({ sequelize }: MigrationContext): Promise<void> {
  await sequelize.query(`
    -- Document bytes, stored once per account and content hash; metadata rows point here.
    CREATE TABLE blobs (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      sha256 text NOT NULL,
      size_bytes integer NOT NULL,
      content bytea NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX blobs_account_sha256 ON blobs (account_id, sha256);

    CREATE TABLE templates (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      name text NOT NULL,
      blob_id uuid NOT NULL REFERENCES blobs (id),
      sha256 text NOT NULL,
      size_bytes integer NOT NULL,
      page_count integer NOT NULL,
      annotations jsonb NOT NULL DEFAULT '[]',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX templates_account ON templates (account_id, created_at DESC);

    CREATE TABLE sessions (
      id uuid PRIMARY KEY,
      account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      notarization_id text,
      status text NOT NULL,
      documents_status text NOT NULL DEFAULT 'pending',
      signing_type text NOT NULL,
      session_type text NOT NULL,
      notarization_timing_type text NOT NULL,
      session_timing timestamptz,
      expires_at timestamptz,
      notary_member_id uuid REFERENCES account_members (id),
      network_notary_id uuid REFERENCES network_notaries (id),
      options jsonb NOT NULL,
      workflow_id text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      completed_at timestamptz
    );
    CREATE INDEX sessions_account_created ON sessions (account_id, created_at DESC, id);
    CREATE INDEX sessions_account_notarization_id ON sessions (account_id, notarization_id);
    CREATE INDEX sessions_account_status ON sessions (account_id, status);

    -- Signers and witnesses; each holds the hash of its own signing-link token.
    CREATE TABLE participants (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      role text NOT NULL CHECK (role IN ('signer', 'witness')),
      index integer NOT NULL,
      email text NOT NULL,
      first_name text,
      last_name text,
      is_host boolean NOT NULL DEFAULT false,
      details jsonb NOT NULL DEFAULT '{}',
      token_hash bytea NOT NULL,
      joined_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (session_id, role, index)
    );
    CREATE UNIQUE INDEX participants_token_hash ON participants (token_hash);

    CREATE TABLE documents (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      position integer NOT NULL,
      name text NOT NULL,
      content_type text NOT NULL,
      size_bytes integer NOT NULL,
      sha256 text NOT NULL,
      blob_id uuid NOT NULL REFERENCES blobs (id),
      template_id uuid REFERENCES templates (id),
      page_count integer,
      annotations jsonb NOT NULL DEFAULT '[]',
      notary_can_edit boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX documents_session ON documents (session_id, position);

    -- Idempotency-Key records: one per account and key, replayed for 24 hours.
    CREATE TABLE idempotency_keys (
      account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      key text NOT NULL,
      fingerprint text NOT NULL,
      state text NOT NULL CHECK (state IN ('in_progress', 'completed')),
      response_status integer,
      response_body jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, key)
    );
    CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires_at);
  `);
}
