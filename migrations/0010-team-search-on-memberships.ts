import type { MigrationContext } from '../src/db/migrator';

/**
 * The team list's e-mail filter searches the vendor's memberships, not every user of the service: each
 * membership carries its person's e-mail, lower-cased, with a trigram index over active memberships.
 * Before, the filter matched the fragment against all users and joined every match to its membership
 * before counting, so a broad fragment on a 100k team took 130 ms. Triggers keep the copy right
 * whichever code path inserts a membership or changes an address.
 */
export async function up({ sequelize }: MigrationContext): Promise<void> {
  await sequelize.query(`
    ALTER TABLE account_members ADD COLUMN search_email text;
    UPDATE account_members m SET search_email = lower(u.email) FROM users u WHERE u.id = m.user_id;
    ALTER TABLE account_members ALTER COLUMN search_email SET NOT NULL;

    CREATE FUNCTION account_members_search_email() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.search_email := (SELECT lower(email) FROM users WHERE id = NEW.user_id);
      RETURN NEW;
    END $$;
    CREATE TRIGGER account_members_search_email BEFORE INSERT OR UPDATE OF user_id ON account_members
      FOR EACH ROW EXECUTE FUNCTION account_members_search_email();

    CREATE FUNCTION users_email_to_memberships() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE account_members SET search_email = lower(NEW.email) WHERE user_id = NEW.id;
      RETURN NULL;
    END $$;
    CREATE TRIGGER users_email_to_memberships AFTER UPDATE OF email ON users
      FOR EACH ROW WHEN (OLD.email IS DISTINCT FROM NEW.email) EXECUTE FUNCTION users_email_to_memberships();

    CREATE INDEX account_members_search_email ON account_members USING gin (search_email gin_trgm_ops)
      WHERE deleted_at IS NULL;
    DROP INDEX users_email_trgm;
  `);
}
