import type { Sequelize } from 'sequelize';
import { actTypesOf } from '../../core/vocabulary';
import { queryRows } from '../db/query';
import type { SessionRow } from '../../core/session/rows';
import { evidenceOf, startVerdict, workParticipants } from './workEvidence';
import type { Worker } from '../auth/people';
import type { WorkList } from '../../core/wire/workList';
import { checkAskedOf } from '../../core/session/identityChecks';
import { networkCommissionStanding } from './commissionHorizon';
import { sessionEndedSql } from '../../core/session/statusSql';

interface WorkRow {
  id: string;
  status: SessionRow['status'];
  documents_status: SessionRow['documents_status'];
  account_name: string;
  session_type: string;
  options: { notarization_types?: string; state_specific_notary?: string | null };
  plan: SessionRow['plan'];
  notarization_id: string | null;
  session_timing: Date | null;
  updated_at: Date;
  offer_expires_at: Date | null;
  relation: 'offered' | 'assigned' | 'witness';
  test_mode: boolean;
}

const LIST_LIMIT = 50;

/**
 * Which sessions a person sees, and how they relate to each: the open offers made to a network notary
 * and the sessions they accepted; a network witness's assignments; a team notary's sessions, a
 * pretagger's sessions awaiting pretagging, an admin's account's sessions.
 */
function scopeOf(worker: Worker): { from: string; where: string; relation: string; bind: unknown[] } {
  if (worker.kind === 'network' && worker.person.role === 'notary')
    return {
      from: `LEFT JOIN notary_offers o
               ON o.session_id = s.id AND o.outcome = 'open' AND o.notary_id = $1 AND o.expires_at > now()`,
      where: 'o.id IS NOT NULL OR s.network_notary_id = $1',
      relation: `CASE WHEN o.id IS NOT NULL THEN 'offered' ELSE 'assigned' END`,
      bind: [worker.person.id],
    };
  const noOffer = 'LEFT JOIN notary_offers o ON false';
  if (worker.kind === 'network')
    return {
      from: noOffer,
      where: 'EXISTS (SELECT 1 FROM participants p WHERE p.session_id = s.id AND p.network_witness_id = $1)',
      relation: `'witness'`,
      bind: [worker.person.id],
    };
  const own = {
    notary: 's.notary_member_id = $2',
    pretagger: `s.status = 'awaiting_pretag'`,
    admin: 'true',
  }[worker.role];
  return {
    from: noOffer,
    where: `s.account_id = $1 AND (${own})`,
    relation: `'assigned'`,
    bind: worker.role === 'notary' ? [worker.accountId, worker.memberId] : [worker.accountId],
  };
}

/** The sessions a notary (team or network) or network witness works on, unfinished first, newest first. */
export async function workList(sequelize: Sequelize, worker: Worker): Promise<WorkList> {
  const scope = scopeOf(worker);
  const sessions = await queryRows<WorkRow>(
    sequelize,
    `SELECT s.id, s.notarization_id, s.status, s.documents_status, s.session_timing, s.updated_at, s.test_mode,
            s.session_type, s.options, s.plan, a.name AS account_name,
            o.expires_at AS offer_expires_at, ${scope.relation} AS relation
       FROM sessions s JOIN accounts a ON a.id = s.account_id ${scope.from}
      WHERE ${scope.where}
      ORDER BY ${sessionEndedSql('s')}, s.updated_at DESC, s.id
      LIMIT ${LIST_LIMIT}`,
    { bind: scope.bind },
  );
  const ids = sessions.map((s) => s.id);
  const participants = await workParticipants(sequelize, ids);
  const me = worker.kind === 'network' ? worker.person.id : undefined;
  const documents = await queryRows<{
    session_id: string;
    id: string;
    name: string;
    content_type: string;
    pages: number | null;
  }>(
    sequelize,
    `SELECT session_id, id, name, content_type, page_count AS pages FROM documents
      WHERE session_id = ANY($1::uuid[]) ORDER BY position`,
    { bind: [ids] },
  );
  return {
    you:
      worker.kind === 'member'
        ? { kind: 'team', role: worker.role }
        : { kind: 'network', role: worker.person.role },
    // A network notary also sees their commission: why offers stop in its last day.
    ...(worker.kind === 'network' && worker.person.role === 'notary'
      ? { commission: await networkCommissionStanding(sequelize, worker.person.id, Date.now()) }
      : {}),
    sessions: sessions.map((s) => {
      const people = participants.filter((p) => p.session_id === s.id);
      const person = (p: (typeof people)[number]) => ({
        index: p.index,
        name: [p.first_name, p.last_name].filter(Boolean).join(' '),
        joined: p.joined_at !== null,
        joined_at: p.joined_at ? new Date(p.joined_at).toISOString() : null,
        identity: identityOf(p),
        identity_evidence: evidenceOf(p.last_check),
        ...(p.role === 'witness'
          ? {
              source: p.network_witness_id ? ('network' as const) : ('invited' as const),
              you: p.network_witness_id === me,
            }
          : {}),
      });
      return {
        bn_session_id: s.id,
        notarization_id: s.notarization_id,
        account_name: s.account_name,
        session_type: s.session_type,
        notarization_types: actTypesOf(s.options),
        state_specific_notary: s.options.state_specific_notary ?? null,
        start: startVerdict(s, people),
        status: s.status,
        documents_status: s.documents_status,
        relation: s.relation,
        offer_expires_at: s.offer_expires_at ? new Date(s.offer_expires_at).toISOString() : null,
        session_timing: s.session_timing ? new Date(s.session_timing).toISOString() : null,
        updated_at: new Date(s.updated_at).toISOString(),
        signers: people.filter((p) => p.role === 'signer').map(person),
        witnesses: people.filter((p) => p.role === 'witness').map(person),
        documents: documents
          .filter((d) => d.session_id === s.id)
          .map((d) => ({ id: d.id, name: d.name, content_type: d.content_type, pages: d.pages })),
        ...(s.test_mode ? { test: true } : {}),
      };
    }),
  };
}

/** Whether the notary can count on a participant's identity: verified, waived, not verified yet, or not asked. */
function identityOf(p: {
  role: 'signer' | 'witness';
  details: Record<string, unknown>;
  network_witness_id: string | null;
  witness_auth: boolean;
  settled: 'passed' | 'skipped' | null;
}): 'verified' | 'waived' | 'not_verified' | 'not_asked' {
  if (p.settled) return p.settled === 'passed' ? 'verified' : 'waived';
  const asked = checkAskedOf({
    role: p.role,
    details: p.details ?? {},
    isNetworkWitness: p.network_witness_id !== null,
    serviceWitnessIdAuthRequired: p.witness_auth,
  });
  return asked === 'none' ? 'not_asked' : 'not_verified';
}
