import crypto from 'node:crypto';
import bcrypt from 'bcryptjs';
import type { Sequelize, Transaction } from 'sequelize';
import { inTransaction } from '../db/transaction';
import { malformed } from '../domain/errors';
import { execute, queryRows } from '../db/query';
import { COMMISSION_FIELDS, recordCommission } from './commissions';
import { auditAppliedChange, factsOf } from './commissionChanges';
import { TEAM_MESSAGES } from './teamErrors';
import type { InviteInput } from './teamSchemas';
import { findMember, presentInvitedMember } from './members';

export interface InviteAnswer {
  status: 200 | 201;
  body: Record<string, unknown>;
}

/**
 * Spec 4.5. The invite writes this vendor's membership only. A notary's commission and seal are written
 * when this invite onboards them for the first time (automatic onboarding, no commission on file yet);
 * otherwise commission fields, like a password for an existing user, are ignored and listed as such.
 */
export async function inviteMember(
  sequelize: Sequelize,
  accountId: string,
  input: InviteInput,
): Promise<InviteAnswer> {
  const [account] = await queryRows<{ auto_onboarding: boolean }>(
    sequelize,
    'SELECT auto_onboarding FROM accounts WHERE id = $1',
    { bind: [accountId] },
  );
  const autoOnboarding = account.auto_onboarding && input.business_role === 'notary';
  if (autoOnboarding && COMMISSION_FIELDS.some((field) => !input[field])) {
    throw malformed(TEAM_MESSAGES.onboardingFields);
  }
  const passwordHash =
    input.password ?? (await bcrypt.hash(crypto.randomBytes(24).toString('base64url'), 10));

  return inTransaction(sequelize, async (transaction) => {
    // Serialise invites of the same e-mail, so two at once cannot create the user twice.
    await execute(sequelize, 'SELECT pg_advisory_xact_lock(hashtext(lower($1)))', {
      bind: [input.email],
      transaction,
    });
    const person = await personOf(sequelize, accountId, input, passwordHash, transaction);
    if ('alreadyLinked' in person)
      return {
        status: 200,
        body: { success: true, already_linked: true, team_member_id: person.alreadyLinked },
      };
    const ignored: string[] = input.password && person.existed ? ['password'] : [];
    const memberId = await link(sequelize, accountId, person.userId, input, transaction);
    const onboarded =
      autoOnboarding && (await onboard(sequelize, accountId, person.userId, input, transaction));
    if (!onboarded) ignored.push(...COMMISSION_FIELDS.filter((field) => input[field] !== undefined));
    const member = (await findMember(sequelize, accountId, memberId, transaction))!;
    return {
      status: 201,
      body: { success: true, user_data: presentInvitedMember(member), ignored_fields: ignored },
    };
  });
}

/** The person the invite names: an existing user (unless this vendor links them already), or a new one. */
async function personOf(
  sequelize: Sequelize,
  accountId: string,
  input: InviteInput,
  passwordHash: string,
  transaction: Transaction,
): Promise<{ userId: string; existed: boolean } | { alreadyLinked: string }> {
  // The row lock orders this invite with an unlink that may release the address (see unlink).
  const [user] = await queryRows<{ id: string }>(
    sequelize,
    'SELECT id FROM users WHERE lower(email) = lower($1) FOR UPDATE',
    { bind: [input.email], transaction },
  );
  if (user) {
    const [linked] = await queryRows<{ id: string }>(
      sequelize,
      'SELECT id FROM account_members WHERE account_id = $1 AND user_id = $2 AND deleted_at IS NULL',
      { bind: [accountId, user.id], transaction },
    );
    return linked ? { alreadyLinked: linked.id } : { userId: user.id, existed: true };
  }
  const [created] = await queryRows<{ id: string }>(
    sequelize,
    `INSERT INTO users (email, password_hash, is_child_account) VALUES ($1, $2, true) RETURNING id`,
    { bind: [input.email, passwordHash], transaction },
  );
  return { userId: created.id, existed: false };
}

/** This vendor's link to the person: its own names, role, options and metadata. */
async function link(
  sequelize: Sequelize,
  accountId: string,
  userId: string,
  input: InviteInput,
  transaction: Transaction,
): Promise<string> {
  const [member] = await queryRows<{ id: string }>(
    sequelize,
    `INSERT INTO account_members (account_id, user_id, first_name, last_name, business_role, vendor_user_id,
                                  role_options, optional_metadata)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    {
      bind: [
        accountId,
        userId,
        input.first_name,
        input.last_name,
        input.business_role,
        input.vendor_user_id ?? null,
        input.role_options ? JSON.stringify(input.role_options) : null,
        input.optional_metadata ? JSON.stringify(input.optional_metadata) : null,
      ],
      transaction,
    },
  );
  return member.id;
}

/** Automatic onboarding: the commission from the invite, when none is on file, audited as the vendor's. */
async function onboard(
  sequelize: Sequelize,
  accountId: string,
  userId: string,
  input: InviteInput,
  transaction: Transaction,
): Promise<boolean> {
  const commission = {
    firstName: input.first_name,
    lastName: input.last_name,
    state: input.state!,
    county: input.county!,
    commissionNumber: input.commission_number!,
    commissionExpiresOn: input.commission_expires_on!,
  };
  if (!(await recordCommission(sequelize, userId, commission, { by: 'vendor', accountId }, transaction)))
    return false;
  await auditAppliedChange(
    sequelize,
    {
      person: { userId },
      requestedBy: { accountId },
      credential: 'vendor_key',
      proof: 'vendor_invite',
      before: null,
      after: factsOf(commission),
    },
    transaction,
  );
  return true;
}
