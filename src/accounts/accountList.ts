import type { Sequelize } from 'sequelize';
import { queryRows } from '../db/query';

export interface ListedAccount {
  id: string;
  name: string;
  test_mode: boolean;
  owner_email: string | null;
  created_at: string;
}

/** `%`, `_` and `\` in a name fragment are its own characters, not LIKE's wildcards. */
const likeFragment = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The business accounts, oldest first, each with its owner admin's e-mail: what an operator needs to find
 * an account's id (for rotate-key or set-branding). `nameContains` keeps those whose name holds it, in any case.
 */
export async function listAccounts(sequelize: Sequelize, nameContains?: string): Promise<ListedAccount[]> {
  return queryRows<ListedAccount>(
    sequelize,
    `SELECT a.id, a.name, a.test_mode, owner.email AS owner_email,
            to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at
       FROM accounts a
       LEFT JOIN LATERAL (
         SELECT u.email FROM account_members m JOIN users u ON u.id = m.user_id
          WHERE m.account_id = a.id AND m.is_owner AND m.deleted_at IS NULL
          ORDER BY m.created_at LIMIT 1) owner ON true
      WHERE $1::text IS NULL OR a.name ILIKE $1
      ORDER BY a.created_at, a.id`,
    { bind: [nameContains === undefined ? null : likeFragment(nameContains)] },
  );
}
