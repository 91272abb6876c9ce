import type { Sequelize, Transaction } from 'sequelize';
import { queryRows } from '../db/query';

export interface MemberRow {
  id: string;
  account_id: string;
  user_id: string;
  email: string;
  first_name: string;
  last_name: string;
  business_role: string | null;
  state: string | null;
  county: string | null;
  commission_number: string | null;
  commission_expires_on: string | null;
  onboarding_status: string;
  vendor_user_id: string | null;
  created_at: Date;
  updated_at: Date;
}

// The vendor's own view of the person (its membership) beside the notary's public commission facts.
export const MEMBER_COLUMNS = `m.id, m.account_id, m.user_id, u.email, m.first_name, m.last_name, m.business_role, c.state, c.county,
  c.commission_number, to_char(c.commission_expires_on, 'YYYY-MM-DD') AS commission_expires_on,
  CASE WHEN c.user_id IS NULL THEN 'pending' ELSE 'complete' END AS onboarding_status,
  m.vendor_user_id, m.created_at, greatest(m.updated_at, c.updated_at) AS updated_at`;
export const MEMBER_JOINS = `JOIN users u ON u.id = m.user_id LEFT JOIN notary_commissions c ON c.user_id = m.user_id`;
export const MEMBER_FROM = `account_members m ${MEMBER_JOINS}`;

const iso = (d: Date) => new Date(d).toISOString();

/** Spec 2.8 / 4.7 fields of a team member. */
export function presentMember(row: MemberRow) {
  return {
    id: row.id,
    email: row.email,
    name: `${row.first_name} ${row.last_name}`,
    business_role: row.business_role,
    onboarding_status: row.onboarding_status,
    state: row.state,
    county: row.county,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** Spec 4.5 `user_data`: the member fields plus the invite-only ones. */
export function presentInvitedMember(row: MemberRow) {
  return {
    ...presentMember(row),
    first_name: row.first_name,
    last_name: row.last_name,
    commission_number: row.commission_number,
    commission_expires_on: row.commission_expires_on
      ? new Date(`${row.commission_expires_on}T00:00:00Z`).toISOString()
      : null,
    vendor_user_id: row.vendor_user_id,
  };
}

/** One of the account's linked members, or undefined. */
export async function findMember(
  sequelize: Sequelize,
  accountId: string,
  memberId: string,
  transaction?: Transaction,
): Promise<MemberRow | undefined> {
  const [row] = await queryRows<MemberRow>(
    sequelize,
    `SELECT ${MEMBER_COLUMNS} FROM ${MEMBER_FROM}
      WHERE m.id = $1 AND m.account_id = $2 AND m.deleted_at IS NULL`,
    { bind: [memberId, accountId], transaction },
  );
  return row;
}
