import { UniqueConstraintError, type Sequelize, type Transaction } from 'sequelize';
import {
  Account,
  AccountMember,
  ApiKey,
  NetworkNotary,
  RefreshToken,
  User,
  type KeyKind,
} from '../db/models';
import { generateKey } from '../auth/keys';

export interface CreateAccountInput {
  name: string;
  autoOnboarding?: boolean;
  whiteLabelBaseUrl?: string | null;
  completionRedirectUrl?: string | null;
  ownerEmail?: string;
}

export interface CreatedAccount {
  account_id: string;
  api_key: string;
  vendor_api_key: string;
  owner_user_id: string;
}

export class NotFoundError extends Error {}
export class ConflictError extends Error {}

async function issueKey(accountId: string, kind: KeyKind, transaction: Transaction): Promise<string> {
  const { key, prefix, secretHash } = generateKey(kind);
  await ApiKey.create({ accountId, kind, prefix, secretHash }, { transaction });
  return key;
}

/** A business (vendor) account with its owner admin and one key of each kind, all or nothing. */
export async function createAccount(
  sequelize: Sequelize,
  input: CreateAccountInput,
): Promise<CreatedAccount> {
  return sequelize.transaction(async (transaction) => {
    const account = await Account.create(
      {
        name: input.name,
        autoOnboarding: input.autoOnboarding ?? false,
        whiteLabelBaseUrl: input.whiteLabelBaseUrl ?? null,
        completionRedirectUrl: input.completionRedirectUrl ?? null,
      },
      { transaction },
    );
    // Vendor operations (unlinking members) act as the account's admin, so every account starts with one.
    const owner = await User.create(
      {
        email: input.ownerEmail ?? `owner+${account.id}@accounts.invalid`,
        passwordHash: null,
      },
      { transaction },
    );
    await AccountMember.create(
      {
        accountId: account.id,
        userId: owner.id,
        firstName: input.name.slice(0, 50),
        lastName: 'Admin',
        businessRole: 'admin',
        isOwner: true,
      },
      { transaction },
    );
    return {
      account_id: account.id,
      api_key: await issueKey(account.id, 'api', transaction),
      vendor_api_key: await issueKey(account.id, 'vendor', transaction),
      owner_user_id: owner.id,
    };
  });
}

/** Issues a new key of one kind; the old one, and every token minted from it, stop working at once. */
export async function rotateKey(sequelize: Sequelize, accountId: string, kind: KeyKind): Promise<string> {
  return sequelize.transaction(async (transaction) => {
    const account = await Account.findByPk(accountId, { transaction, lock: transaction.LOCK.UPDATE });
    if (!account) throw new NotFoundError(`Account ${accountId} not found`);
    const old = await ApiKey.findAll({ where: { accountId, kind, revokedAt: null }, transaction });
    const now = new Date();
    for (const key of old) {
      await key.update({ revokedAt: now }, { transaction });
      await RefreshToken.update(
        { revokedAt: now },
        { where: { apiKeyId: key.id, revokedAt: null }, transaction },
      );
    }
    return issueKey(accountId, kind, transaction);
  });
}

export interface NetworkNotaryInput {
  email: string;
  firstName: string;
  lastName: string;
  state: string;
  commissionNumber: string;
  commissionExpiresOn: string;
}

export async function addNetworkNotary(input: NetworkNotaryInput): Promise<{ notary_id: string }> {
  try {
    const notary = await NetworkNotary.create(input);
    return { notary_id: notary.id };
  } catch (err) {
    if (err instanceof UniqueConstraintError)
      throw new ConflictError(`A network notary with e-mail ${input.email} already exists`);
    throw err;
  }
}
