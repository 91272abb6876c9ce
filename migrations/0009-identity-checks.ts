import type { MigrationContext } from '../src/db/migrator';

/**
 * Identity proofing of participants, before they are admitted to a session:
 * - `identity_checks`: one row per attempt (KBA quiz, ID scan with selfie) or per waiver (`skip`, with
 *   who allowed it); a participant has at most one attempt open at a time. `reported_at` is set once the
 *   session's workflow has recorded the outcome, so an outcome the workflow missed is sent again.
 * - `sandbox_identity_verifications`: the state the sandbox provider keeps, as a vendor would on its side
 *   (the answer key never leaves it).
 * - accounts' white-label look of the participant pages, and their default late-notary modal.
 */
export async function up({ sequelize }: MigrationContext): Promise<void> {
  await sequelize.query(`
    CREATE TABLE identity_checks (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      participant_id uuid NOT NULL REFERENCES participants (id) ON DELETE CASCADE,
      method text NOT NULL CHECK (method IN ('kba', 'biometrics', 'skip')),
      provider text,
      provider_verification_id text,
      attempt integer NOT NULL CHECK (attempt >= 1),
      question_ids text[] NOT NULL DEFAULT '{}',
      outcome text CHECK (outcome IN ('passed', 'failed', 'skipped')),
      correct integer,
      total integer,
      reasons text[] NOT NULL DEFAULT '{}',
      allowed_by text,
      locked_until timestamptz,
      started_at timestamptz NOT NULL DEFAULT now(),
      deadline timestamptz,
      completed_at timestamptz,
      reported_at timestamptz,
      CONSTRAINT identity_checks_skip_says_who CHECK (method <> 'skip' OR allowed_by IS NOT NULL)
    );
    CREATE UNIQUE INDEX identity_checks_one_open ON identity_checks (participant_id) WHERE outcome IS NULL;
    CREATE INDEX identity_checks_participant ON identity_checks (participant_id, started_at);
    CREATE INDEX identity_checks_unreported ON identity_checks (participant_id)
      WHERE outcome IS NOT NULL AND reported_at IS NULL;

    CREATE TABLE sandbox_identity_verifications (
      id text PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('kba', 'document')),
      subject jsonb NOT NULL,
      state jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now()
    );

    ALTER TABLE accounts
      ADD COLUMN brand_color text CHECK (brand_color ~ '^#[0-9a-fA-F]{6}$'),
      ADD COLUMN delay_threshold jsonb;
  `);
}
