import type { MigrationContext } from '../src/db/migrator';

export async function up({ sequelize }: MigrationContext): Promise<void> {
  await sequelize.query(`
    -- Every document is kept as uploaded and as a PDF (converted at upload for PNG, JPG, TXT and DOCX).
    ALTER TABLE documents ADD COLUMN pdf_blob_id uuid REFERENCES blobs (id);
    UPDATE documents SET pdf_blob_id = blob_id WHERE content_type = 'application/pdf';

    -- The notarized output: stamped, with its certificate page, digitally signed (PAdES).
    CREATE TABLE signed_documents (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      document_id uuid NOT NULL UNIQUE REFERENCES documents (id) ON DELETE CASCADE,
      session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      blob_id uuid NOT NULL REFERENCES blobs (id),
      sha256 text NOT NULL,
      size_bytes integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX signed_documents_session ON signed_documents (session_id);

    CREATE TABLE document_downloads (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      signed_document_id uuid NOT NULL REFERENCES signed_documents (id) ON DELETE CASCADE,
      remote_address text,
      user_agent text,
      downloaded_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX document_downloads_document ON document_downloads (signed_document_id, downloaded_at);

    -- The notary journal: one entry per notarial act of a completed session.
    CREATE TABLE journal_entries (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      act_type text NOT NULL,
      performed_at timestamptz NOT NULL,
      signers jsonb NOT NULL,
      notary jsonb NOT NULL,
      documents jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (session_id, act_type)
    );

    -- Per-session hash chain of events: each record holds the previous record's hash.
    CREATE TABLE audit_records (
      session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      seq integer NOT NULL,
      event_id text NOT NULL UNIQUE,
      event text NOT NULL,
      payload jsonb NOT NULL,
      prev_hash text NOT NULL,
      hash text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (session_id, seq)
    );
  `);
}
