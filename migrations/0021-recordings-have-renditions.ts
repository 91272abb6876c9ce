import type { MigrationContext } from '../src/db/migrator';

/**
 * A recording's evidence is the streams as received, remuxed; what is made from it afterwards (the
 * composed grid) is a rendition beside it, with its own file and hash. Once stored, what describes a
 * rendition is final, as the recording's own description is; it goes with its recording.
 */
export async function up({ sequelize }: MigrationContext): Promise<void> {
  await sequelize.query(`
    CREATE TABLE recording_renditions (
      recording_id uuid NOT NULL REFERENCES recordings (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('grid')),
      status text NOT NULL CHECK (status IN ('pending', 'processing', 'available', 'failed')),
      content_type text,
      duration_seconds numeric(12, 3),
      size_bytes bigint,
      sha256 text,
      object_key text,
      failure_reason text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (recording_id, kind)
    );

    CREATE FUNCTION renditions_are_kept() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.status = 'available' AND to_jsonb(NEW) IS DISTINCT FROM to_jsonb(OLD) THEN
        RAISE EXCEPTION 'rendition % of recording % is stored: what describes it is final', OLD.kind, OLD.recording_id;
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER renditions_are_kept BEFORE UPDATE ON recording_renditions
      FOR EACH ROW EXECUTE FUNCTION renditions_are_kept();
    CREATE TRIGGER recording_renditions_not_truncated BEFORE TRUNCATE ON recording_renditions
      FOR EACH STATEMENT EXECUTE FUNCTION evidence_is_not_truncated();`);
}
