import type { MigrationContext } from '../src/db/migrator';

/**
 * What the pages need to be worked in unaided:
 * - `accounts.logo`: the participant pages show the account's logo (PNG or JPEG, at most 200 KB);
 * - `console_sign_ins`: a notary console sign-in renews its short access tokens while in use, until it
 *   ends (a working day) or the person signs out; a token of an ended sign-in is refused at once;
 * - `notary_offers.outcome` `declined`: a network notary passes an offer on at once.
 */
export async function up({ sequelize }: MigrationContext): Promise<void> {
  await sequelize.query(`
    ALTER TABLE accounts ADD COLUMN logo bytea CHECK (octet_length(logo) <= 204800),
                         ADD COLUMN logo_type text CHECK (logo_type IN ('image/png', 'image/jpeg')),
                         ADD CONSTRAINT accounts_logo_has_type CHECK ((logo IS NULL) = (logo_type IS NULL));

    CREATE TABLE console_sign_ins (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      subject_id uuid NOT NULL,
      started_at timestamptz NOT NULL DEFAULT now(),
      ends_at timestamptz NOT NULL,
      signed_out_at timestamptz
    );
    CREATE INDEX console_sign_ins_ends_at ON console_sign_ins (ends_at);

    ALTER TABLE notary_offers DROP CONSTRAINT notary_offers_outcome_check;
    ALTER TABLE notary_offers ADD CONSTRAINT notary_offers_outcome_check
      CHECK (outcome IN ('open', 'accepted', 'expired', 'withdrawn', 'released', 'declined'));
  `);
}
