import type { Sequelize, Transaction } from 'sequelize';
import { inTransaction } from '../db/transaction';
import { generateOpaqueToken, secretMatches } from '../auth/keys';
import { conflict, notFound } from '../domain/errors';
import { execute, queryRows } from '../db/query';
import { isUuid } from '../ids';
import { recordCommission, type Commission } from './commissions';
import type { MemberRow } from './members';

/** How a change of a commission was asked for, and what proved the notary wanted it. */
export type CommissionCredential = 'login_link' | 'vendor_key' | 'operator';
export type CommissionProof = 'email_confirmation' | 'vendor_invite' | 'operator';

/** The commission facts as the audit keeps them (the API's names). */
export type CommissionFacts = Record<string, string | null>;

export function factsOf(commission: Partial<Commission>): CommissionFacts {
  return {
    first_name: commission.firstName ?? null,
    last_name: commission.lastName ?? null,
    state: commission.state ?? null,
    county: commission.county ?? null,
    commission_number: commission.commissionNumber ?? null,
    commission_expires_on: commission.commissionExpiresOn ?? null,
  };
}

/** One change as the audit records it: whose commission, who asked, through what, and the facts. */
export interface AppliedChange {
  person: { userId: string } | { networkNotaryId: string };
  requestedBy?: { accountId: string; memberId?: string };
  credential: CommissionCredential;
  proof: CommissionProof;
  before: CommissionFacts | null;
  after: CommissionFacts;
}

/** Records a change that was applied at once (a vendor's first onboarding, an operator's renewal). */
export async function auditAppliedChange(
  sequelize: Sequelize,
  change: AppliedChange,
  transaction: Transaction,
): Promise<void> {
  await execute(
    sequelize,
    `INSERT INTO commission_changes (user_id, network_notary_id, requested_by_account_id, requested_by_member_id,
                                     credential, proof, before, after, status, applied_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'applied', now())`,
    {
      bind: [
        'userId' in change.person ? change.person.userId : null,
        'networkNotaryId' in change.person ? change.person.networkNotaryId : null,
        change.requestedBy?.accountId ?? null,
        change.requestedBy?.memberId ?? null,
        change.credential,
        change.proof,
        change.before ? JSON.stringify(change.before) : null,
        JSON.stringify(change.after),
      ],
      transaction,
    },
  );
}

export interface PendingChange {
  changeId: string;
  /** The confirmation key, for the e-mail only; stored as a hash. */
  key: string;
  email: string;
  expiresAt: Date;
}

/**
 * A member asks, through a vendor's login link, to record or renew their commission: kept pending until the
 * person confirms it from their own e-mail, since the vendor that minted the link is not the person.
 */
export async function requestCommissionChange(
  sequelize: Sequelize,
  member: MemberRow,
  commission: Commission,
  ttlSeconds: number,
  transaction: Transaction,
): Promise<PendingChange> {
  const { token: key, hash } = generateOpaqueToken();
  const before = member.commission_number
    ? factsOf({
        state: member.state ?? undefined,
        county: member.county ?? undefined,
        commissionNumber: member.commission_number,
        commissionExpiresOn: member.commission_expires_on ?? undefined,
      })
    : null;
  const [row] = await queryRows<{ id: string; expires_at: Date }>(
    sequelize,
    `INSERT INTO commission_changes (user_id, requested_by_account_id, requested_by_member_id, credential, before,
                                     after, status, confirmation_key_hash, expires_at)
     VALUES ($1, $2, $3, 'login_link', $4, $5, 'pending', $6, now() + make_interval(secs => $7))
     RETURNING id, expires_at`,
    {
      bind: [
        member.user_id,
        member.account_id,
        member.id,
        before ? JSON.stringify(before) : null,
        JSON.stringify(factsOf(commission)),
        hash,
        ttlSeconds,
      ],
      transaction,
    },
  );
  return { changeId: row.id, key, email: member.email, expiresAt: row.expires_at };
}

interface ChangeRow {
  id: string;
  user_id: string;
  status: 'pending' | 'applied' | 'superseded';
  confirmation_key_hash: Buffer;
  expired: boolean;
  before: CommissionFacts | null;
  after: CommissionFacts;
  account_name: string | null;
}

/** A pending change its confirmation key opens; anything else (unknown, wrong key, expired, done) is 404. */
export async function openChange(
  sequelize: Sequelize,
  changeId: string,
  key: string,
  transaction?: Transaction,
): Promise<ChangeRow> {
  const [row] = isUuid(changeId)
    ? await queryRows<ChangeRow>(
        sequelize,
        `SELECT c.id, c.user_id, c.status, c.confirmation_key_hash, c.expires_at <= now() AS expired, c.before,
                c.after, a.name AS account_name
           FROM commission_changes c LEFT JOIN accounts a ON a.id = c.requested_by_account_id
          WHERE c.id = $1 AND c.confirmation_key_hash IS NOT NULL
          ${transaction ? 'FOR UPDATE OF c' : ''}`,
        { bind: [changeId], transaction },
      )
    : [];
  if (!row || !secretMatches(key, row.confirmation_key_hash) || row.expired)
    throw notFound('Confirmation link not found or expired');
  return row;
}

/** What the confirmation page shows: the change, and the vendor through whose link it was asked. */
export async function describeChange(sequelize: Sequelize, changeId: string, key: string) {
  const {
    status,
    before,
    after,
    account_name: requestedThrough,
  } = await openChange(sequelize, changeId, key);
  return { status, before, after, requestedThrough };
}

/**
 * The notary confirms from their e-mail: the commission and seal are recorded, the change is audited as
 * applied, and other changes still pending for them are superseded. Confirming twice answers the same.
 */
export async function confirmCommissionChange(
  sequelize: Sequelize,
  changeId: string,
  key: string,
): Promise<CommissionFacts> {
  return inTransaction(sequelize, async (transaction) => {
    const change = await openChange(sequelize, changeId, key, transaction);
    if (change.status === 'applied') return change.after;
    if (change.status !== 'pending')
      throw conflict('A later change of this commission was confirmed; this one no longer applies');
    const facts = change.after;
    await recordCommission(
      sequelize,
      change.user_id,
      {
        firstName: facts.first_name!,
        lastName: facts.last_name!,
        state: facts.state!,
        county: facts.county!,
        commissionNumber: facts.commission_number!,
        commissionExpiresOn: facts.commission_expires_on!,
      },
      { by: 'notary' },
      transaction,
    );
    await execute(
      sequelize,
      `UPDATE commission_changes
          SET status = CASE WHEN id = $1 THEN 'applied' ELSE 'superseded' END,
              proof = CASE WHEN id = $1 THEN 'email_confirmation' ELSE proof END,
              applied_at = CASE WHEN id = $1 THEN now() ELSE applied_at END
        WHERE user_id = $2 AND status = 'pending'`,
      { bind: [changeId, change.user_id], transaction },
    );
    return facts;
  });
}

/** Every change of one person's commission, oldest first, for an operator. */
export async function commissionHistory(sequelize: Sequelize, email: string) {
  return queryRows(
    sequelize,
    `SELECT c.id, c.status, c.credential, c.proof, c.before, c.after, c.requested_at, c.applied_at,
            a.name AS requested_through_account, c.requested_by_member_id
       FROM commission_changes c
       LEFT JOIN users u ON u.id = c.user_id
       LEFT JOIN network_notaries n ON n.id = c.network_notary_id
       LEFT JOIN accounts a ON a.id = c.requested_by_account_id
      WHERE lower(coalesce(u.email, n.email)) = lower($1)
      ORDER BY c.requested_at, c.id`,
    { bind: [email] },
  );
}
