import type { Sequelize } from 'sequelize';
import { queryRows } from '../db/query';
import { preparedStatement } from '../db/preparedStatements';
import { commissionInForce } from '../team/jurisdictionTime';

/** Every create that names its notary asks it. */
const ACCOUNT_NOTARY_BY_EMAIL = preparedStatement(
  'account-notary-by-email',
  `SELECT m.id, c.state, to_char(c.commission_expires_on, 'YYYY-MM-DD') AS expires_on
       FROM account_members m JOIN users u ON u.id = m.user_id
       JOIN notary_commissions c ON c.user_id = m.user_id
      WHERE m.account_id = $1 AND m.business_role = 'notary' AND m.deleted_at IS NULL AND lower(u.email) = lower($2)`,
);

/**
 * A linked (not unlinked) notary member of the account with this e-mail, case-insensitively, whose
 * commission is on file, in force at `actAt` (epoch ms, when the act is to be performed) and of `state`
 * when the session asks for one.
 */
export async function findAccountNotary(
  sequelize: Sequelize,
  accountId: string,
  email: string,
  actAt: number,
  state?: string,
): Promise<{ id: string } | undefined> {
  const rows = await queryRows<{ id: string; state: string; expires_on: string }>(
    sequelize,
    ACCOUNT_NOTARY_BY_EMAIL,
    { bind: [accountId, email] },
  );
  const member = rows.find(
    (row) => commissionInForce(row.state, row.expires_on, actAt) && (!state || row.state === state),
  );
  return member && { id: member.id };
}
