import crypto from 'node:crypto';
import { createAccount, type CreatedAccount } from '../../src/accounts/accounts';
import { testEnvironment } from './environment';

export interface TestAccountOptions {
  /** A random one unless given. */
  name?: string;
  autoOnboarding?: boolean;
  whiteLabelBaseUrl?: string;
  completionRedirectUrl?: string;
  brandColor?: string;
  delayThreshold?: { title?: string; message?: string; actions?: Array<{ label: string; url: string }> };
  /** Test mode unless a test is about the live act: its media and recording. */
  testMode?: boolean;
}

/** Each test works in an account of its own, so tests never see each other's data. */
export function createTestAccount(opts: TestAccountOptions = {}): Promise<CreatedAccount> {
  return createAccount(testEnvironment().runtime.sequelize, {
    name: `Test account ${crypto.randomUUID().slice(0, 8)}`,
    testMode: true,
    ...opts,
  });
}

/**
 * A linked notary member of the account with a commission on file (unexpired unless `expiresOn` says
 * otherwise), as the team API's onboarding (or an operator) would create it.
 */
export async function addTeamNotary(
  accountId: string,
  email = `notary-${crypto.randomUUID().slice(0, 8)}@example.com`,
  { expiresOn = '2035-12-31', state = 'TX' }: { expiresOn?: string; state?: string } = {},
) {
  const sequelize = testEnvironment().runtime.sequelize;
  const [users] = (await sequelize.query(`INSERT INTO users (email) VALUES ($1) RETURNING id`, {
    bind: [email],
  })) as [Array<{ id: string }>, unknown];
  const [members] = (await sequelize.query(
    `INSERT INTO account_members (account_id, user_id, first_name, last_name, business_role)
     VALUES ($1, $2, 'Nora', 'Notary', 'notary') RETURNING id`,
    { bind: [accountId, users[0].id] },
  )) as [Array<{ id: string }>, unknown];
  await sequelize.query(
    `INSERT INTO notary_commissions (user_id, first_name, last_name, state, county, commission_number,
                                     commission_expires_on, onboarded_by, onboarded_by_account_id)
     VALUES ($1, 'Nora', 'Notary', $4, 'Travis', $4 || '-900001', $2, 'vendor', $3)`,
    { bind: [users[0].id, expiresOn, accountId, state] },
  );
  return { email, memberId: members[0].id, userId: users[0].id };
}
