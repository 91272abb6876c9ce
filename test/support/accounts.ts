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
