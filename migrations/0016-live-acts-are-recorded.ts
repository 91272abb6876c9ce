import type { MigrationContext } from '../src/db/migrator';

/**
 * Live acts happen in a media room and are recorded; test-mode accounts run the lifecycle without media.
 * `media_rooms` keeps each room a session had (a media server restart opens the next segment's);
 * `recordings` the act's recording, whose bytes live in the object store under `object_key`; the journal
 * notes where it is kept. The database keeps recordings from deletion and announces status changes.
 */
export async function up({ sequelize }: MigrationContext): Promise<void> {
  await sequelize.query(`
    ALTER TABLE accounts ADD COLUMN test_mode boolean NOT NULL DEFAULT false;
    ALTER TABLE sessions ADD COLUMN test_mode boolean NOT NULL DEFAULT false;
    UPDATE sessions SET plan = plan || '{"testMode": false}'::jsonb;

    CREATE TABLE media_rooms (
      session_id uuid NOT NULL REFERENCES sessions (id),
      segment integer NOT NULL CHECK (segment > 0),
      room text NOT NULL UNIQUE,
      secret text NOT NULL,
      recording_dir text NOT NULL,
      opened_at timestamptz NOT NULL DEFAULT now(),
      closed_at timestamptz,
      PRIMARY KEY (session_id, segment)
    );

    CREATE TABLE recordings (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      session_id uuid NOT NULL UNIQUE REFERENCES sessions (id),
      status text NOT NULL CHECK (status IN ('recording', 'processing', 'available', 'failed')),
      content_type text,
      duration_seconds numeric(12, 3),
      size_bytes bigint,
      sha256 text,
      object_key text,
      started_at timestamptz NOT NULL,
      ended_at timestamptz,
      segments jsonb NOT NULL DEFAULT '[]'::jsonb,
      failure_reason text,
      retain_until timestamptz,
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    ALTER TABLE journal_entries ADD COLUMN recording jsonb;

    -- Evidence outlives any code path that might delete it: the database itself refuses, and once stored a
    -- recording's hash, object and retention never change.
    CREATE FUNCTION recordings_are_kept() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' AND (OLD.retain_until IS NULL OR OLD.retain_until > now()) THEN
        RAISE EXCEPTION 'recording % is kept until %', OLD.id, COALESCE(OLD.retain_until::text, 'it is made');
      END IF;
      IF TG_OP = 'UPDATE' AND OLD.status = 'available' AND (NEW.sha256, NEW.object_key, NEW.retain_until, NEW.status)
         IS DISTINCT FROM (OLD.sha256, OLD.object_key, OLD.retain_until, OLD.status) THEN
        RAISE EXCEPTION 'recording % is stored: its hash, object and retention are final', OLD.id;
      END IF;
      RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
    END $$;
    CREATE TRIGGER recordings_are_kept BEFORE UPDATE OR DELETE ON recordings
      FOR EACH ROW EXECUTE FUNCTION recordings_are_kept();

    -- A signer waiting for the notary hears of the start at once (src/sessions/statusChanges.ts).
    CREATE FUNCTION announce_session_status() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('session_status', NEW.id::text);
      RETURN NULL;
    END $$;
    CREATE TRIGGER announce_session_status AFTER UPDATE OF status ON sessions
      FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION announce_session_status();
  `);
}
