import type { Sequelize } from 'sequelize';
import { queryRows } from '../db/query';

interface RosterEntry {
  id: string;
  email: string;
  name: string;
  removed_at: string | null;
  removed_reason: string | null;
}

export interface NetworkRoster {
  notaries: Array<RosterEntry & { state: string; commission_number: string; commission_expires_on: string }>;
  witnesses: RosterEntry[];
}

/** A row as PostgreSQL gives it: the removal's time as a Date. */
type Stored<T extends { removed_at: string | null }> = Omit<T, 'removed_at'> & { removed_at: Date | null };

const PERSON = `id, email, first_name || ' ' || last_name AS name, removed_at, removed_reason`;

/** Who is in the network, by e-mail; those an operator removed only when asked for. */
export async function networkRoster(
  sequelize: Sequelize,
  options: { includeRemoved: boolean },
): Promise<NetworkRoster> {
  const where = options.includeRemoved ? '' : 'WHERE removed_at IS NULL';
  const notaries = await queryRows<Stored<NetworkRoster['notaries'][number]>>(
    sequelize,
    `SELECT ${PERSON}, state, commission_number, to_char(commission_expires_on, 'YYYY-MM-DD') AS commission_expires_on
       FROM network_notaries ${where} ORDER BY lower(email)`,
  );
  const witnesses = await queryRows<Stored<RosterEntry>>(
    sequelize,
    `SELECT ${PERSON} FROM network_witnesses ${where} ORDER BY lower(email)`,
  );
  const shown = <T extends { removed_at: Date | null }>(row: T) => ({
    ...row,
    removed_at: row.removed_at?.toISOString() ?? null,
  });
  return { notaries: notaries.map(shown), witnesses: witnesses.map(shown) };
}
