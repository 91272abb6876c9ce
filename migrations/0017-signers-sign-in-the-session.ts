import type { MigrationContext } from '../src/db/migrator';

/**
 * Signers sign in the session: each consents to electronic records and signatures, adopts a signature
 * and initials, and applies them at their places. Every annotation gets a stable `id` (the place a
 * signature is applied to, or a notary moves); a trigger gives one to every annotation written without.
 * Applications are evidence: never updated or deleted. In a live act, the notary identifies a signer the
 * account asked no check of (`notary` identity checks).
 */
export async function up({ sequelize }: MigrationContext): Promise<void> {
  await sequelize.query(`
    CREATE FUNCTION annotations_with_ids(annotations jsonb) RETURNS jsonb LANGUAGE sql VOLATILE AS $$
      SELECT coalesce(jsonb_agg(CASE WHEN a ? 'id' THEN a
                                     ELSE a || jsonb_build_object('id', substr(md5(gen_random_uuid()::text), 1, 12))
                                END ORDER BY ord), '[]'::jsonb)
        FROM jsonb_array_elements(annotations) WITH ORDINALITY AS t(a, ord)
    $$;
    CREATE FUNCTION documents_annotation_ids() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.annotations := annotations_with_ids(NEW.annotations);
      RETURN NEW;
    END $$;
    CREATE TRIGGER documents_annotation_ids BEFORE INSERT OR UPDATE OF annotations ON documents
      FOR EACH ROW EXECUTE FUNCTION documents_annotation_ids();
    UPDATE documents SET annotations = annotations;

    ALTER TABLE identity_checks DROP CONSTRAINT identity_checks_method_check;
    ALTER TABLE identity_checks ADD CONSTRAINT identity_checks_method_check
      CHECK (method IN ('kba', 'biometrics', 'skip', 'notary'));

    ALTER TABLE participants
      ADD COLUMN consented_at timestamptz,
      ADD COLUMN consent jsonb,
      ADD COLUMN signing_focus jsonb;

    CREATE TABLE adopted_signatures (
      participant_id uuid NOT NULL REFERENCES participants (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('signature', 'initials')),
      method text NOT NULL CHECK (method IN ('typed', 'drawn')),
      style text,
      text text,
      strokes jsonb,
      png bytea NOT NULL,
      adopted_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (participant_id, kind)
    );

    CREATE TABLE signature_applications (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      session_id uuid NOT NULL REFERENCES sessions (id),
      participant_id uuid NOT NULL REFERENCES participants (id),
      document_id uuid NOT NULL REFERENCES documents (id),
      place_id text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('signature', 'initials')),
      png bytea NOT NULL,
      document_sha256 text NOT NULL,
      client_ip text,
      user_agent text,
      applied_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (document_id, place_id)
    );
    CREATE INDEX signature_applications_session ON signature_applications (session_id, applied_at);
    CREATE FUNCTION signature_applications_are_kept() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'a signature application is evidence of the act: it is kept as applied';
    END $$;
    CREATE TRIGGER signature_applications_are_kept BEFORE UPDATE OR DELETE ON signature_applications
      FOR EACH ROW EXECUTE FUNCTION signature_applications_are_kept();
  `);
}
