import crypto from 'node:crypto';
import { createAccount, type CreatedAccount } from '../../src/services/accounts';
import { testEnvironment } from './environment';

export interface TestAccountOptions {
  autoOnboarding?: boolean;
  whiteLabelBaseUrl?: string;
  completionRedirectUrl?: string;
}

/** Each test works in an account of its own, so tests never see each other's data. */
export function createTestAccount(opts: TestAccountOptions = {}): Promise<CreatedAccount> {
  return createAccount(testEnvironment().runtime.sequelize, {
    name: `Test account ${crypto.randomUUID().slice(0, 8)}`,
    ...opts,
  });
}

/** A linked notary member of the account, as the team API (or an operator) would create it. */
export async function addTeamNotary(
  accountId: string,
  email = `notary-${crypto.randomUUID().slice(0, 8)}@example.com`,
) {
  const sequelize = testEnvironment().runtime.sequelize;
  const [users] = (await sequelize.query(
    `INSERT INTO users (email, first_name, last_name) VALUES ($1, 'Nora', 'Notary') RETURNING id`,
    { bind: [email] },
  )) as [Array<{ id: string }>, unknown];
  const [members] = (await sequelize.query(
    `INSERT INTO account_members (account_id, user_id, business_role) VALUES ($1, $2, 'notary') RETURNING id`,
    { bind: [accountId, users[0].id] },
  )) as [Array<{ id: string }>, unknown];
  return { email, memberId: members[0].id, userId: users[0].id };
}
