import type { MigrationContext } from '../src/db/migrator';

/**
 * ANALYZE keeps how often each trigram of the members' search e-mails occurs, so the team list's e-mail
 * filter can look up the rare part of a fragment rather than read the posting lists of trigrams every
 * member shares (a search for one person on a 100k team read 400k entries to find 111 rows). Analysed
 * here once so a large team has the figures at once; autovacuum keeps them current.
 */
export async function up({ sequelize }: MigrationContext): Promise<void> {
  await sequelize.query(`
    CREATE STATISTICS account_members_search_trigrams ON (show_trgm(search_email)) FROM account_members;
    ANALYZE account_members;
  `);
}
