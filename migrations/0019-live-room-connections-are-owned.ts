import type { MigrationContext } from '../src/db/migrator';

/**
 * What the live room's holes (issue 67) need from the database:
 * - `media_connections` and `media_handles`: each Janus session and handle the signaling proxy opened, with
 *   the media token's session and identity that opened it, so a token acts only on its own, and one person
 *   holds no more of the media server than their room needs;
 * - `participants.room_state`: what a participant's page says of its room (camera blocked, off, reconnecting), so
 *   the notary knows why someone is not on camera;
 * - `identity_check_images`: the photos of each ID check (the ID's front and back, the selfie), kept in the
 *   object store as evidence, for the notary to compare with the face on camera;
 * - evidence tables refuse TRUNCATE, and a recording's identity (id, session) never changes, nor, once
 *   stored, any column that describes the evidence (its `updated_at` then says when it was stored).
 */
export async function up({ sequelize }: MigrationContext): Promise<void> {
  await sequelize.query(`
    CREATE TABLE media_connections (
      janus_session text PRIMARY KEY,
      seq bigserial NOT NULL UNIQUE,
      session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      identity text NOT NULL,
      opened_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX media_connections_holder ON media_connections (session_id, identity, seq);
    CREATE TABLE media_handles (
      handle text PRIMARY KEY,
      seq bigserial NOT NULL UNIQUE,
      janus_session text NOT NULL REFERENCES media_connections (janus_session) ON DELETE CASCADE,
      opened_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX media_handles_connection ON media_handles (janus_session, seq);

    ALTER TABLE participants
      ADD COLUMN room_state text CHECK (room_state IN ('checking', 'ready', 'connecting', 'live', 'reconnecting',
                                                       'blocked', 'camera_off', 'muted', 'ended')),
      ADD COLUMN room_state_at timestamptz;

    CREATE TABLE identity_check_images (
      check_id uuid NOT NULL REFERENCES identity_checks (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('id_front', 'id_back', 'selfie')),
      content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg')),
      object_key text NOT NULL,
      sha256 text NOT NULL,
      size_bytes integer NOT NULL CHECK (size_bytes > 0),
      PRIMARY KEY (check_id, kind)
    );

    CREATE OR REPLACE FUNCTION recordings_are_kept() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' AND (OLD.retain_until IS NULL OR OLD.retain_until > now()) THEN
        RAISE EXCEPTION 'recording % is kept until %', OLD.id, COALESCE(OLD.retain_until::text, 'it is made');
      END IF;
      IF TG_OP = 'UPDATE' AND (NEW.id, NEW.session_id, NEW.started_at) IS DISTINCT FROM
                              (OLD.id, OLD.session_id, OLD.started_at) THEN
        RAISE EXCEPTION 'recording % belongs to its session: its id, session and start are final', OLD.id;
      END IF;
      IF TG_OP = 'UPDATE' AND OLD.status = 'available' AND
         (NEW.sha256, NEW.object_key, NEW.retain_until, NEW.status, NEW.content_type, NEW.duration_seconds,
          NEW.size_bytes, NEW.ended_at, NEW.segments, NEW.failure_reason, NEW.updated_at)
         IS DISTINCT FROM
         (OLD.sha256, OLD.object_key, OLD.retain_until, OLD.status, OLD.content_type, OLD.duration_seconds,
          OLD.size_bytes, OLD.ended_at, OLD.segments, OLD.failure_reason, OLD.updated_at) THEN
        RAISE EXCEPTION 'recording % is stored: what describes it is final', OLD.id;
      END IF;
      RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
    END $$;

    -- TRUNCATE skips row triggers: the evidence tables refuse it as a statement.
    CREATE FUNCTION evidence_is_not_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION '% is evidence of the acts: it is never truncated', TG_TABLE_NAME;
    END $$;
    CREATE TRIGGER recordings_not_truncated BEFORE TRUNCATE ON recordings
      FOR EACH STATEMENT EXECUTE FUNCTION evidence_is_not_truncated();
    CREATE TRIGGER signature_applications_not_truncated BEFORE TRUNCATE ON signature_applications
      FOR EACH STATEMENT EXECUTE FUNCTION evidence_is_not_truncated();
  `);
}
