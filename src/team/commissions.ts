import type { Sequelize, Transaction } from 'sequelize';
import { renderSeal } from './seal';
import { execute, queryRows } from '../db/query';
import { NOTARY_AT_THE_ACT, SESSION_NOTARY_JOINS } from '../db/sessionNotary';
import { commissionOnFile } from './jurisdictionTime';
import type { CommissionOnFile } from '../../core/session/commission';
import type { NotaryAtTheAct } from '../../core/session/messages';

/** A notary's commission as onboarding records it: the facts every certificate of theirs states. */
export interface Commission {
  firstName: string;
  lastName: string;
  /** Two-letter state code. */
  state: string;
  county: string;
  commissionNumber: string;
  /** YYYY-MM-DD. */
  commissionExpiresOn: string;
}

/** Who writes a commission: the first vendor to onboard the notary, or the notary themself (any time). */
export type OnboardedBy = { by: 'vendor'; accountId: string } | { by: 'notary' };

/** The commission fields of an invite or an onboarding request, as their API names. */
export const COMMISSION_FIELDS = ['state', 'county', 'commission_number', 'commission_expires_on'] as const;

/**
 * Records a notary's commission and renders their seal from it. A vendor writes only a commission that
 * does not exist yet (its invite cannot change what another vendor onboarded); the notary may also
 * replace their own, e.g. on renewal. Answers whether it was written.
 */
export async function recordCommission(
  sequelize: Sequelize,
  userId: string,
  commission: Commission,
  source: OnboardedBy,
  transaction: Transaction,
): Promise<boolean> {
  const written = await queryRows<{ user_id: string }>(
    sequelize,
    `INSERT INTO notary_commissions (user_id, first_name, last_name, state, county, commission_number,
                                     commission_expires_on, onboarded_by, onboarded_by_account_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7::date, $8, $9)
     ON CONFLICT (user_id) DO ${
       source.by === 'notary'
         ? `UPDATE SET first_name = excluded.first_name, last_name = excluded.last_name, state = excluded.state,
              county = excluded.county, commission_number = excluded.commission_number,
              commission_expires_on = excluded.commission_expires_on, onboarded_by = excluded.onboarded_by,
              onboarded_by_account_id = NULL, updated_at = now()`
         : 'NOTHING'
     }
     RETURNING user_id`,
    {
      bind: [
        userId,
        commission.firstName,
        commission.lastName,
        commission.state,
        commission.county,
        commission.commissionNumber,
        commission.commissionExpiresOn,
        source.by,
        source.by === 'vendor' ? source.accountId : null,
      ],
      transaction,
    },
  );
  if (!written.length) return false;
  const seal = renderSeal({
    stateCode: commission.state,
    notaryName: `${commission.firstName} ${commission.lastName}`,
    commissionNumber: commission.commissionNumber,
    commissionExpiresOn: commission.commissionExpiresOn,
  });
  await execute(sequelize, 'INSERT INTO notary_seals (user_id, state, svg, png) VALUES ($1, $2, $3, $4)', {
    bind: [userId, commission.state, seal.svg, seal.png],
    transaction,
  });
  return true;
}

/**
 * The commission of a session's notary: whether the session has a notary yet, their commission on file
 * (`expiresOn` null when none is: onboarding pending) with the instant it ends in its jurisdiction, and
 * the notary as a certificate would state them, all from one read.
 */
export async function sessionNotaryCommission(
  sequelize: Sequelize,
  sessionId: string,
): Promise<{ hasNotary: boolean; notary: NotaryAtTheAct } & CommissionOnFile> {
  const rows = await queryRows<{ has_notary: boolean; notary: NotaryAtTheAct }>(
    sequelize,
    `SELECT s.notary_member_id IS NOT NULL OR s.network_notary_id IS NOT NULL AS has_notary,
            ${NOTARY_AT_THE_ACT} AS notary
       FROM sessions s ${SESSION_NOTARY_JOINS}
      WHERE s.id = $1`,
    { bind: [sessionId] },
  );
  // Sessions are never deleted, and the caller has found this one.
  const { has_notary: hasNotary, notary } = rows[0];
  return { hasNotary, notary, ...commissionOnFile(notary.state, notary.commission_expires_on) };
}
