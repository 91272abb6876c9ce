import type { MigrationContext } from '../src/db/migrator';

/**
 * A notary adopts a signature once, as signers do, and signs with it wherever they sign: a team notary as
 * the user they are, a network notary as theirs. A change adds a row: a document already signed keeps
 * the one it was signed with (the act names it by id). Released documents are found by their hash.
 */
export async function up({ sequelize }: MigrationContext): Promise<void> {
  await sequelize.query(`
    CREATE TABLE notary_signatures (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid REFERENCES users (id) ON DELETE CASCADE,
      network_notary_id uuid REFERENCES network_notaries (id) ON DELETE CASCADE,
      method text NOT NULL CHECK (method IN ('typed', 'drawn')),
      style text,
      text text,
      strokes jsonb,
      png bytea NOT NULL,
      adopted_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((user_id IS NULL) <> (network_notary_id IS NULL))
    );
    CREATE INDEX notary_signatures_user ON notary_signatures (user_id, adopted_at DESC);
    CREATE INDEX notary_signatures_network_notary ON notary_signatures (network_notary_id, adopted_at DESC);

    CREATE INDEX signed_documents_sha256 ON signed_documents (sha256);`);
}
