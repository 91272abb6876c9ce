import type { MigrationContext } from '../src/db/migrator';

export async function up({ sequelize }: MigrationContext): Promise<void> {
  await sequelize.query(`
    -- Every session event, once: the id is fixed by the workflow, so a retried publish is a no-op.
    CREATE TABLE events (
      id text PRIMARY KEY,
      account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      event text NOT NULL,
      payload jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX events_session ON events (session_id, created_at);

    CREATE TABLE webhook_endpoints (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      url text NOT NULL,
      events text[],
      secret text NOT NULL,
      disabled_at timestamptz,
      disabled_reason text,
      deleted_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id) WHERE deleted_at IS NULL;

    CREATE TABLE webhook_deliveries (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
      event_id text NOT NULL REFERENCES events (id) ON DELETE CASCADE,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed', 'disabled')),
      attempt_count integer NOT NULL DEFAULT 0,
      last_status_code integer,
      delivered_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (endpoint_id, event_id)
    );

    CREATE TABLE webhook_attempts (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
      attempted_at timestamptz NOT NULL DEFAULT now(),
      status_code integer,
      latency_ms integer NOT NULL,
      error text,
      success boolean NOT NULL
    );
    CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, attempted_at);

    -- Every e-mail the service sends, recorded whether or not SMTP is configured.
    CREATE TABLE email_outbox (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      participant_id uuid REFERENCES participants (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('invitation', 'completion')),
      to_email text NOT NULL,
      subject text NOT NULL,
      body text NOT NULL,
      state text NOT NULL CHECK (state IN ('held', 'pending', 'sent', 'failed')),
      error text,
      sent_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (participant_id, kind)
    );
    CREATE INDEX email_outbox_session ON email_outbox (session_id);
  `);
}
