import type { Sequelize } from 'sequelize';
import { queryRows } from '../db/query';
import { judgeRequest } from '../../core/session/machine';
import { recordedState } from '../sessions/sessionRules';
import type { SessionRow } from '../../core/session/rows';
import type { Evidence } from '../../core/wire/workList';

/** An identity check as the notary sees it: how, with what outcome, on which attempt, and why. */
interface LastCheck {
  method: 'kba' | 'biometrics' | 'skip' | 'notary';
  outcome: 'passed' | 'failed' | 'skipped' | null;
  attempt: number;
  provider: string | null;
  correct: number | null;
  total: number | null;
  reasons: string[];
  locked_until: string | null;
  completed_at: string | null;
}

export interface WorkParticipant {
  session_id: string;
  role: 'signer' | 'witness';
  index: number;
  first_name: string | null;
  last_name: string | null;
  email: string;
  joined_at: Date | null;
  network_witness_id: string | null;
  details: Record<string, unknown>;
  witness_auth: boolean;
  settled: 'passed' | 'skipped' | null;
  last_check: LastCheck | null;
}

/** The participants of the sessions in a work list, each with their latest identity check. */
export function workParticipants(sequelize: Sequelize, sessionIds: string[]): Promise<WorkParticipant[]> {
  return queryRows<WorkParticipant>(
    sequelize,
    `SELECT p.session_id, p.role, p.index, p.first_name, p.last_name, p.email, p.joined_at, p.network_witness_id,
            p.details,
            coalesce((s.options -> 'witnesses' ->> 'service_witness_id_auth_required')::boolean, false) AS witness_auth,
            (SELECT c.outcome FROM identity_checks c
              WHERE c.participant_id = p.id AND c.outcome IN ('passed', 'skipped') LIMIT 1) AS settled,
            (SELECT to_jsonb(c) FROM (
               SELECT method, outcome, attempt, provider, correct, total, reasons, locked_until, completed_at
                 FROM identity_checks WHERE participant_id = p.id ORDER BY started_at DESC, attempt DESC LIMIT 1) c
            ) AS last_check
       FROM participants p JOIN sessions s ON s.id = p.session_id
      WHERE p.session_id = ANY($1::uuid[]) ORDER BY p.role DESC, p.index`,
    { bind: [sessionIds] },
  );
}

const METHOD = { kba: 'kba', biometrics: 'id_check', skip: 'waived', notary: 'notary' } as const;

/** What the notary is shown of a participant's identity evidence; null before any check. */
export function evidenceOf(check: LastCheck | null): Evidence | null {
  if (!check) return null;
  return {
    method: METHOD[check.method],
    outcome: check.outcome ?? 'in_progress',
    attempt: check.attempt,
    provider: check.provider,
    ...(check.total !== null ? { score: `${check.correct ?? 0} of ${check.total}` } : {}),
    reasons: check.reasons,
    locked_until:
      check.locked_until && Date.parse(check.locked_until) > Date.now() ? check.locked_until : null,
    checked_at: check.completed_at,
  };
}

/** Whether the session's rules let its notary start it now, and if not, why: the machine's own answer. */
export function startVerdict(
  session: Pick<SessionRow, 'status' | 'documents_status' | 'plan'>,
  people: WorkParticipant[],
): { allowed: boolean; reason: string | null } {
  const state = recordedState(
    session,
    people.filter((p) => p.joined_at).map((p) => ({ role: p.role, index: p.index, email: p.email })),
    people.filter((p) => p.settled === 'passed').map((p) => ({ role: p.role, index: p.index })),
  );
  const verdict = judgeRequest(state, session.plan, 'start', Date.now());
  return verdict.outcome === 'allowed'
    ? { allowed: true, reason: null }
    : { allowed: false, reason: verdict.outcome === 'refused' ? verdict.refusal.reason : null };
}
