import type { Sequelize } from 'sequelize';
import { actTypesOf } from '../../core/vocabulary';
import type { CoveredSegment } from './actWording';
import { renderSeal } from '../team/seal';
import { NOTARY_AT_THE_ACT, SESSION_NOTARY_JOINS } from '../db/sessionNotary';
import { stateName } from '../../core/usStates';
import { actTimeIn } from '../team/jurisdictionTime';
import type { ActKind, NotarialActContext } from './notarize';
import { queryRows } from '../db/query';
import type { NotaryAtTheAct } from '../../core/session/messages';

/** What sessions from before identity checks were recorded asked for; they have no check to cite. */
const IDENTITY_METHODS: Record<string, string> = {
  kba: 'knowledge-based authentication',
  biometrics: 'ID scan and biometric match',
  skip: 'no electronic identity verification',
};

interface SettledCheck {
  method: 'kba' | 'biometrics' | 'skip' | 'notary';
  reasons: string[];
  attempt: number;
  completed_at: Date;
  provider: string | null;
}

/** How a participant's identity was established, as the certificate and the journal state it. */
function identityStatement(check: SettledCheck, accountName: string): string {
  const at = check.completed_at.toISOString().replace(/\.\d+Z$/, 'Z');
  const by = `on attempt ${check.attempt}, ${at}`;
  switch (check.method) {
    case 'kba':
      return `identity established by knowledge-based authentication, passed ${by}`;
    case 'biometrics':
      return `identity established by credential analysis of a government ID and a biometric match, passed ${by}`;
    case 'notary':
      return `identified in the session by the notary on ${check.reasons[0]}, ${at}`;
    case 'skip':
      return `no electronic identity verification: waived by ${accountName}`;
  }
}

/** A test-mode session; else a live act with its stored recording, or the reason it has none. */
function actKindOf({ test_mode, recording }: Pick<SessionFacts, 'test_mode' | 'recording'>): ActKind {
  if (test_mode) return { kind: 'test' };
  if (recording?.status === 'available' && recording.sha256)
    return {
      kind: 'live',
      recording: { id: recording.id, sha256: recording.sha256, segments: recording.segments ?? [] },
    };
  const reason =
    recording?.failure_reason ?? (recording ? `its recording is ${recording.status}` : 'none was made');
  return { kind: 'live', recording: null, reason };
}

interface SessionFacts {
  account_id: string;
  test_mode: boolean;
  recording: {
    id: string;
    status: string;
    sha256: string | null;
    failure_reason: string | null;
    segments: CoveredSegment[] | null;
  } | null;
  account_name: string;
  options: { notarization_types?: string };
  completed_at: Date | null;
  notary: NotaryAtTheAct;
  seal_png: Buffer | null;
  notary_signature_png: Buffer | null;
}

/** Everything a notarial certificate states about a completed session, except the document itself. */
export async function loadActFacts(sequelize: Sequelize, sessionId: string) {
  const rows = await queryRows<SessionFacts>(
    sequelize,
    // The notary as kept at the act; sessions completed before it was kept, as on file now.
    `SELECT account_id, account_name, options, completed_at, notary, test_mode,
            (SELECT png FROM notary_seals WHERE id = (notary->>'seal_id')::uuid) AS seal_png,
            (SELECT png FROM notary_signatures WHERE id = (notary->>'signature_id')::uuid) AS notary_signature_png,
            (SELECT json_build_object('id', r.id, 'status', r.status, 'sha256', r.sha256,
                                      'failure_reason', r.failure_reason, 'segments', r.segments)
               FROM recordings r WHERE r.session_id = facts.id) AS recording
       FROM (SELECT s.id, s.account_id, s.test_mode, (SELECT name FROM accounts WHERE id = s.account_id) AS account_name, s.options,
                    s.completed_at, coalesce(s.act_notary, ${NOTARY_AT_THE_ACT}) AS notary
               FROM sessions s ${SESSION_NOTARY_JOINS}
              WHERE s.id = $1) facts`,
    { bind: [sessionId] },
  );
  const facts = rows[0];
  const participants = await queryRows<{
    role: string;
    first_name: string | null;
    last_name: string | null;
    email: string;
    details: Record<string, unknown>;
    check: SettledCheck | null;
    signed_at: Date | null;
  }>(
    sequelize,
    `SELECT p.role, p.first_name, p.last_name, p.email, p.details,
            (SELECT max(a.applied_at) FROM signature_applications a WHERE a.participant_id = p.id) AS signed_at,
            (SELECT json_build_object('method', c.method, 'attempt', c.attempt, 'completed_at', c.completed_at,
                                      'provider', c.provider, 'reasons', c.reasons)
               FROM identity_checks c WHERE c.participant_id = p.id AND c.outcome IN ('passed', 'skipped')
              ORDER BY c.outcome = 'passed' DESC, c.completed_at LIMIT 1) AS "check"
       FROM participants p WHERE p.session_id = $1 ORDER BY p.role DESC, p.index`,
    { bind: [sessionId] },
  );
  const statementOf = (p: (typeof participants)[number]) =>
    p.check
      ? identityStatement({ ...p.check, completed_at: new Date(p.check.completed_at) }, facts.account_name)
      : undefined;
  const nameOf = (p: (typeof participants)[number]) =>
    [p.first_name, p.last_name].filter(Boolean).join(' ') || p.email;
  // A certificate without the notary's commission would misstate a legal act: refuse rather than print one.
  // Sessions cannot start without it, so this guards rows written before commissions were required.
  const { notary } = facts;
  if (!notary.name || !notary.state || !notary.commission_number || !notary.commission_expires_on)
    throw new Error(`session ${sessionId}: the notary has no commission on file`);
  const commission = {
    commissionNumber: notary.commission_number,
    commissionExpiresOn: notary.commission_expires_on,
  };
  const performedAt = facts.completed_at ? new Date(facts.completed_at) : new Date();
  // Network notaries have no stored seal: theirs is rendered from the same commission facts.
  const sealPng =
    facts.seal_png ?? renderSeal({ stateCode: notary.state, notaryName: notary.name, ...commission }).png;
  return {
    accountId: facts.account_id,
    actTypes: actTypesOf(facts.options),
    venue: { state: stateName(notary.state) ?? notary.state, county: notary.county },
    performedAt,
    actTime: actTimeIn(notary.state, performedAt.getTime(), notary.time_zone),
    notary: { name: notary.name, ...commission },
    sealPng,
    notarySignaturePng: facts.notary_signature_png,
    signers: participants
      .filter((p) => p.role === 'signer')
      .map((p) => ({
        name: nameOf(p),
        identityMethod:
          statementOf(p) ?? IDENTITY_METHODS[String(p.details.authentication_type)] ?? 'not specified',
        ...(p.signed_at ? { signedAt: new Date(p.signed_at).toISOString().replace(/\.\d+Z$/, 'Z') } : {}),
      })),
    witnesses: participants
      .filter((p) => p.role === 'witness')
      .map((p) => ({ name: nameOf(p), identityMethod: statementOf(p) })),
    act: actKindOf(facts),
  } satisfies Omit<NotarialActContext, 'sessionId' | 'document' | 'marks'> & { accountId: string };
}
