import type { Sequelize, Transaction } from 'sequelize';
import { inTransaction } from '../db/transaction';
import { execute, isUniqueViolation, queryRows } from '../db/query';
import { generateKey } from '../auth/keys';
import { insertKey, revokeKeys, type KeyKind } from '../auth/keyStore';
import { networkNotaryIsFreeSql } from '../team/notaryAvailability';
import { auditAppliedChange, factsOf } from '../team/commissionChanges';
import { PERSON_BY_EMAIL, removedFromNetwork } from '../auth/people';

export interface CreateAccountInput {
  name: string;
  autoOnboarding?: boolean;
  whiteLabelBaseUrl?: string | null;
  completionRedirectUrl?: string | null;
  ownerEmail?: string;
  /** The participant pages' brand colour (`#rrggbb`). */
  brandColor?: string | null;
  /** The late-notary modal of sessions that set no delay_threshold of their own. */
  delayThreshold?: {
    title?: string;
    message?: string;
    actions?: Array<{ label: string; url: string }>;
  } | null;
  /** Sessions run the lifecycle without media and are marked as no notarial act. */
  testMode?: boolean;
}

export interface CreatedAccount {
  account_id: string;
  api_key: string;
  vendor_api_key: string;
  owner_user_id: string;
}

export class NotFoundError extends Error {}
export class ConflictError extends Error {}

async function issueKey(
  sequelize: Sequelize,
  accountId: string,
  kind: KeyKind,
  transaction: Transaction,
): Promise<string> {
  const { key, prefix, secretHash } = generateKey(kind);
  await insertKey(sequelize, { accountId, kind, prefix, secretHash }, transaction);
  return key;
}

/** A business (vendor) account with its owner admin and one key of each kind, all or nothing. */
export async function createAccount(
  sequelize: Sequelize,
  input: CreateAccountInput,
): Promise<CreatedAccount> {
  return inTransaction(sequelize, async (transaction) => {
    const [account] = await queryRows<{ id: string }>(
      sequelize,
      `INSERT INTO accounts (name, auto_onboarding, white_label_base_url, completion_redirect_url, brand_color,
                             delay_threshold, test_mode)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      {
        bind: [
          input.name,
          input.autoOnboarding ?? false,
          input.whiteLabelBaseUrl ?? null,
          input.completionRedirectUrl ?? null,
          input.brandColor ?? null,
          input.delayThreshold ? JSON.stringify(input.delayThreshold) : null,
          input.testMode ?? false,
        ],
        transaction,
      },
    );
    // Vendor operations (unlinking members) act as the account's admin, so every account starts with one.
    const [owner] = await queryRows<{ id: string }>(
      sequelize,
      'INSERT INTO users (email, password_hash) VALUES ($1, NULL) RETURNING id',
      { bind: [input.ownerEmail ?? `owner+${account.id}@accounts.invalid`], transaction },
    );
    await execute(
      sequelize,
      `INSERT INTO account_members (account_id, user_id, first_name, last_name, business_role, is_owner)
       VALUES ($1, $2, $3, 'Admin', 'admin', true)`,
      { bind: [account.id, owner.id, input.name.slice(0, 50)], transaction },
    );
    return {
      account_id: account.id,
      api_key: await issueKey(sequelize, account.id, 'api', transaction),
      vendor_api_key: await issueKey(sequelize, account.id, 'vendor', transaction),
      owner_user_id: owner.id,
    };
  });
}

/** Issues a new key of one kind; the old one, and every token minted from it, stop working at once. */
export async function rotateKey(sequelize: Sequelize, accountId: string, kind: KeyKind): Promise<string> {
  return inTransaction(sequelize, async (transaction) => {
    const [account] = await queryRows<{ id: string }>(
      sequelize,
      'SELECT id FROM accounts WHERE id = $1 FOR UPDATE',
      {
        bind: [accountId],
        transaction,
      },
    );
    if (!account) throw new NotFoundError(`Account ${accountId} not found`);
    await revokeKeys(sequelize, accountId, kind, transaction);
    return issueKey(sequelize, accountId, kind, transaction);
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

export async function addNetworkNotary(
  sequelize: Sequelize,
  input: NetworkNotaryInput,
): Promise<{ notary_id: string }> {
  try {
    return await inTransaction(sequelize, async (transaction) => {
      const [notary] = await queryRows<{ id: string }>(
        sequelize,
        `INSERT INTO network_notaries (email, first_name, last_name, state, commission_number, commission_expires_on)
         VALUES ($1, $2, $3, $4, $5, $6::date) RETURNING id`,
        {
          bind: [
            input.email,
            input.firstName,
            input.lastName,
            input.state,
            input.commissionNumber,
            input.commissionExpiresOn,
          ],
          transaction,
        },
      );
      await auditAppliedChange(
        sequelize,
        { person: { networkNotaryId: notary.id }, ...BY_OPERATOR, before: null, after: factsOf(input) },
        transaction,
      );
      return { notary_id: notary.id };
    });
  } catch (err) {
    if (isUniqueViolation(err))
      throw new ConflictError(`A network notary with e-mail ${input.email} already exists`);
    throw err;
  }
}

/** The operator's CLI writes network commissions: it is their own proof. */
const BY_OPERATOR = { credential: 'operator', proof: 'operator' } as const;

const NETWORK_COMMISSION_COLUMNS = `first_name, last_name, state, commission_number,
  to_char(commission_expires_on, 'YYYY-MM-DD') AS commission_expires_on`;

interface NetworkCommissionRow {
  first_name: string;
  last_name: string;
  state: string;
  commission_number: string;
  commission_expires_on: string;
}

const networkFacts = (row: NetworkCommissionRow) =>
  factsOf({
    firstName: row.first_name,
    lastName: row.last_name,
    state: row.state,
    commissionNumber: row.commission_number,
    commissionExpiresOn: row.commission_expires_on,
  });

/**
 * Records a network notary's renewed (or corrected) commission: its number and expiry, and its state when
 * they are now commissioned elsewhere. Sessions already completed keep the commission they were
 * certified under (`act_notary`); what comes next is judged by this one. The state does not change under a
 * session they have taken and not finished, nor an offer open to them: it may ask for a notary of the old state.
 */
export async function renewNetworkNotaryCommission(
  sequelize: Sequelize,
  input: { email: string; state?: string; commissionNumber: string; commissionExpiresOn: string },
): Promise<{ notary_id: string; state: string; commission_number: string; commission_expires_on: string }> {
  const renewed = await inTransaction(sequelize, async (transaction) => {
    // The dispatch locks a notary's row while it offers them a session or assigns one, and this statement
    // reads as of its start: it would miss an offer committed while it waited for that lock. Taking the lock
    // first, the next statement sees what the dispatch wrote.
    const [notary] = await queryRows<{ id: string; removed_at: Date | null }>(
      sequelize,
      `SELECT id, removed_at FROM network_notaries WHERE lower(email) = lower($1) ${PERSON_BY_EMAIL} FOR UPDATE`,
      { bind: [input.email], transaction },
    );
    if (!notary) throw new NotFoundError(`No network notary with e-mail ${input.email}`);
    if (notary.removed_at)
      throw new ConflictError(removedFromNetwork('notary', input.email, notary.removed_at));
    const [before] = await queryRows<NetworkCommissionRow>(
      sequelize,
      `SELECT ${NETWORK_COMMISSION_COLUMNS} FROM network_notaries WHERE id = $1`,
      { bind: [notary.id], transaction },
    );
    const [row] = await queryRows<NetworkCommissionRow & { notary_id: string }>(
      sequelize,
      `UPDATE network_notaries n
          SET state = coalesce($2, state), commission_number = $3, commission_expires_on = $4::date, updated_at = now()
        WHERE id = $1
          AND ($2::text IS NULL OR $2 = n.state OR ${networkNotaryIsFreeSql('n')})
        RETURNING id AS notary_id, ${NETWORK_COMMISSION_COLUMNS}`,
      {
        bind: [notary.id, input.state ?? null, input.commissionNumber, input.commissionExpiresOn],
        transaction,
      },
    );
    if (!row) return undefined;
    await auditAppliedChange(
      sequelize,
      {
        person: { networkNotaryId: notary.id },
        ...BY_OPERATOR,
        before: networkFacts(before),
        after: networkFacts(row),
      },
      transaction,
    );
    const { notary_id, state, commission_number, commission_expires_on } = row;
    return { notary_id, state, commission_number, commission_expires_on };
  });
  if (renewed) return renewed;
  throw new ConflictError(
    `The network notary ${input.email} has an unfinished session or an open offer: their state can change once it is over`,
  );
}
