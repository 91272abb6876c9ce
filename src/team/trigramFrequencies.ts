import type { Sequelize } from 'sequelize';
import { queryRows } from '../db/query';
import type { TrigramFrequency } from './searchLookup';

/** Statistics change only as ANALYZE runs (autovacuum, after a tenth of the table changes). */
const MAX_AGE_MS = 10 * 60_000;

/**
 * How often each trigram occurs in the members' search e-mails, read from the statistics ANALYZE keeps
 * (migration 0013), and cached. A trigram the statistics do not list is rarer than the rarest listed:
 * it counts as half that, as PostgreSQL's own estimates do. Undefined before the table was analysed, and
 * to a role that does not own the table (PostgreSQL shows the figures to its owner, who ran the migrations).
 */
export class TrigramFrequencies {
  private cached?: { at: number; frequency: TrigramFrequency | undefined };
  private loading?: Promise<TrigramFrequency | undefined>;

  constructor(private readonly sequelize: Sequelize) {}

  async current(): Promise<TrigramFrequency | undefined> {
    if (this.cached && Date.now() - this.cached.at < MAX_AGE_MS) return this.cached.frequency;
    this.loading ??= this.load().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async load(): Promise<TrigramFrequency | undefined> {
    const [stats] = await queryRows<{ trigrams: string[] | null; frequencies: number[] | null }>(
      this.sequelize,
      `SELECT most_common_elems::text::text[] AS trigrams, most_common_elem_freqs AS frequencies
         FROM pg_stats_ext_exprs
        WHERE statistics_schemaname = current_schema() AND statistics_name = 'account_members_search_trigrams'
          AND NOT inherited`,
    );
    let frequency: TrigramFrequency | undefined;
    if (stats?.trigrams?.length && stats.frequencies) {
      const { trigrams, frequencies } = stats;
      const listed = new Map(trigrams.map((trigram, i) => [trigram, frequencies[i]]));
      // After one frequency per trigram come the lowest and the highest of them.
      const unlisted = frequencies[trigrams.length] / 2;
      frequency = (trigram) => listed.get(trigram) ?? unlisted;
    }
    this.cached = { at: Date.now(), frequency };
    return frequency;
  }
}
