import type { Sequelize, Transaction } from 'sequelize';
import { sessionEndedSql } from '../../core/session/statusSql';
import { notFound } from '../domain/errors';
import { execute, queryRows } from '../db/query';
import { inTransaction } from '../db/transaction';
import { PERSON_BY_EMAIL, type NetworkRole } from '../auth/people';

export interface NetworkRemoval {
  id: string;
  email: string;
  role: NetworkRole;
  removed_at: string;
  removed_reason: string;
  /** Removed before: `removed_at` and `removed_reason` are the first removal's, and nothing else changes. */
  already_removed: boolean;
  /**
   * Sessions they hold and that have not ended, with the integrator's account: a witness's place in one not
   * begun is filled again, the rest the operator follows up with that integrator.
   */
  unfinished_sessions: UnfinishedSession[];
  /** Offers still open to them: each is withdrawn and its session offered to another notary. */
  open_offers: number;
}

export interface UnfinishedSession {
  bn_session_id: string;
  status: string;
  account: { id: string; name: string };
}

const TABLE: Record<NetworkRole, string> = { notary: 'network_notaries', witness: 'network_witnesses' };
const NAME: Record<NetworkRole, string> = { notary: 'network notary', witness: 'network witness' };

const UNFINISHED = `SELECT s.id AS bn_session_id, s.status, json_build_object('id', a.id, 'name', a.name) AS account
                      FROM sessions s JOIN accounts a ON a.id = s.account_id`;
const UNFINISHED_SESSIONS: Record<NetworkRole, string> = {
  notary: `${UNFINISHED} WHERE s.network_notary_id = $1 AND NOT ${sessionEndedSql('s')} ORDER BY s.created_at`,
  witness: `${UNFINISHED} WHERE NOT ${sessionEndedSql('s')}
              AND EXISTS (SELECT 1 FROM participants p WHERE p.session_id = s.id AND p.network_witness_id = $1)
            ORDER BY s.created_at`,
};

/**
 * Removes a notary or witness from the network at once (a commission revoked or suspended, a person who
 * left): nothing more is offered or assigned to them, their sign-in and login links stop working, and the
 * row stays, with when and why, as their past acts name it. Their row's lock orders it with the dispatch:
 * an offer committed first is counted here, and a dispatch after it skips them. Removing them again answers
 * the first removal and what they still hold, so that the sessions a removal could not tell can be told.
 */
export async function removeNetworkPerson(
  sequelize: Sequelize,
  role: NetworkRole,
  input: { email: string; reason: string },
): Promise<NetworkRemoval> {
  return inTransaction(sequelize, async (transaction) => {
    const [person] = await queryRows<{
      id: string;
      email: string;
      removed_at: Date | null;
      removed_reason: string | null;
    }>(
      sequelize,
      `SELECT id, email, removed_at, removed_reason FROM ${TABLE[role]} WHERE lower(email) = lower($1) ${PERSON_BY_EMAIL} FOR UPDATE`,
      { bind: [input.email], transaction },
    );
    if (!person) throw notFound(`No ${NAME[role]} has e-mail ${input.email}`);
    const removed = person.removed_at
      ? { removed_at: person.removed_at, removed_reason: person.removed_reason! }
      : await remove(sequelize, role, person.id, input.reason, transaction);
    const unfinished = await queryRows<UnfinishedSession>(sequelize, UNFINISHED_SESSIONS[role], {
      bind: [person.id],
      transaction,
    });
    const [{ open }] =
      role === 'notary'
        ? await queryRows<{ open: number }>(
            sequelize,
            `SELECT count(*)::int AS open FROM notary_offers WHERE notary_id = $1 AND outcome = 'open'`,
            { bind: [person.id], transaction },
          )
        : [{ open: 0 }];
    return {
      id: person.id,
      email: person.email,
      role,
      removed_at: removed.removed_at.toISOString(),
      removed_reason: removed.removed_reason,
      already_removed: !!person.removed_at,
      unfinished_sessions: unfinished,
      open_offers: open,
    };
  });
}

async function remove(
  sequelize: Sequelize,
  role: NetworkRole,
  id: string,
  reason: string,
  transaction: Transaction,
): Promise<{ removed_at: Date; removed_reason: string }> {
  const [removed] = await queryRows<{ removed_at: Date }>(
    sequelize,
    `UPDATE ${TABLE[role]} SET removed_at = now(), removed_reason = $2 WHERE id = $1 RETURNING removed_at`,
    { bind: [id, reason], transaction },
  );
  await execute(sequelize, `DELETE FROM network_login_links WHERE ${role}_id = $1`, {
    bind: [id],
    transaction,
  });
  return { removed_at: removed.removed_at, removed_reason: reason };
}
