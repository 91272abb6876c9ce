import type { Sequelize } from 'sequelize';
import { queryRows } from '../db/query';

/**
 * A linked (not unlinked) notary member of the account with this e-mail, case-insensitively, whose
 * commission is on file and unexpired on `onDate` (YYYY-MM-DD, the day the act is to be performed).
 */
export async function findAccountNotary(
  sequelize: Sequelize,
  accountId: string,
  email: string,
  onDate: string,
): Promise<{ id: string } | undefined> {
  const rows = await queryRows<{ id: string }>(
    sequelize,
    `SELECT m.id FROM account_members m JOIN users u ON u.id = m.user_id
       JOIN notary_commissions c ON c.user_id = m.user_id
      WHERE m.account_id = $1 AND m.business_role = 'notary' AND m.deleted_at IS NULL AND lower(u.email) = lower($2)
        AND c.commission_expires_on >= $3::date`,
    { bind: [accountId, email, onDate] },
  );
  return rows[0];
}
