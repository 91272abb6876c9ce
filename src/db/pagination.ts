import type { Sequelize } from 'sequelize';
import { queryRows } from './query';

export interface PageRequest {
  page: number;
  limit: number;
}

export interface Pagination {
  page: number;
  limit: number;
  total_items: number;
  total_pages: number;
}

export interface Listing {
  /** The columns to select. */
  columns: string;
  /** `FROM … WHERE …`, with bind parameters $1…$n. */
  fromWhere: string;
  orderBy: string;
  bind: unknown[];
  /**
   * Joins that only add columns to the rows shown, made once the page is cut rather than for every
   * match counted. `alias` names the filtered table in `fromWhere`, `orderBy` and `columns`.
   */
  decorate?: { alias: string; joins: string };
  /**
   * How the total is counted. `beside` (the default): a count of its own beside a page read in the order's
   * index, for filters an index answers; counting every match into the page's query would make it visit every
   * match instead of only the page's entries in the index, several times the cost on a large team's
   * unfiltered list. `over`: over the matches the page is cut from, for a search that visits every match
   * anyway; counting apart would search twice.
   */
  count?: 'beside' | 'over';
}

/**
 * One page of a listing with its totals. The count comes with the page's rows; a page past the end
 * (no rows) counts separately, so every page reports the same total.
 */
export async function pageOf<Row extends object>(
  sequelize: Sequelize,
  listing: Listing,
  { page, limit }: PageRequest,
): Promise<{ rows: Row[]; pagination: Pagination }> {
  const n = listing.bind.length;
  const cut = `LIMIT $${n + 1} OFFSET $${n + 2}`;
  const { decorate } = listing;
  // Counted over the matches, the total rides on each row of the page; counted beside, it is a subquery.
  const over = listing.count === 'over';
  const total = over
    ? 'count(*) OVER () AS total_items__'
    : `(SELECT count(*) ${listing.fromWhere}) AS total_items__`;
  const found = await queryRows<Row & { total_items__: string }>(
    sequelize,
    decorate
      ? `WITH page AS (SELECT ${decorate.alias}.*${over ? `, ${total}` : ''} ${listing.fromWhere}
                        ORDER BY ${listing.orderBy} ${cut})
         SELECT ${listing.columns}, ${over ? `${decorate.alias}.total_items__` : total}
           FROM page ${decorate.alias} ${decorate.joins}
          ORDER BY ${listing.orderBy}`
      : `SELECT ${listing.columns}, ${total} ${listing.fromWhere}
          ORDER BY ${listing.orderBy} ${cut}`,
    { bind: [...listing.bind, limit, (page - 1) * limit] },
  );
  const totalItems = found.length
    ? Number(found[0].total_items__)
    : (
        await queryRows<{ n: number }>(sequelize, `SELECT count(*)::int AS n ${listing.fromWhere}`, {
          bind: listing.bind,
        })
      )[0].n;
  const rows = found.map(({ total_items__: _total, ...row }) => row as unknown as Row);
  return {
    rows,
    pagination: { page, limit, total_items: totalItems, total_pages: Math.ceil(totalItems / limit) },
  };
}
