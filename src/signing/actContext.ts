import type { Sequelize } from 'sequelize';
import { renderSeal } from '../team/seal';
import { SESSION_NOTARY_JOINS } from '../db/sessionNotary';
import { stateName } from '../sessions/usStates';
import type { NotarialActContext } from './notarize';
import { queryRows } from '../db/query';

const IDENTITY_METHODS: Record<string, string> = {
  kba: 'knowledge-based authentication',
  biometrics: 'ID scan and biometric match',
  skip: 'no electronic identity verification',
};

interface SessionFacts {
  account_id: string;
  options: { notarization_types?: string };
  completed_at: Date | null;
  notary_name: string | null;
  notary_state: string | null;
  notary_county: string | null;
  commission_number: string | null;
  commission_expires_on: string | null;
  seal_png: Buffer | null;
}

/** Everything a notarial certificate states about a completed session, except the document itself. */
export async function loadActFacts(sequelize: Sequelize, sessionId: string) {
  const rows = await queryRows<SessionFacts>(
    sequelize,
    `SELECT s.account_id, s.options, s.completed_at,
            coalesce(c.first_name || ' ' || c.last_name, n.first_name || ' ' || n.last_name) AS notary_name,
            coalesce(c.state, n.state) AS notary_state, c.county AS notary_county,
            coalesce(c.commission_number, n.commission_number) AS commission_number,
            to_char(coalesce(c.commission_expires_on, n.commission_expires_on), 'YYYY-MM-DD') AS commission_expires_on,
            (SELECT png FROM notary_seals ns WHERE ns.user_id = c.user_id ORDER BY ns.created_at DESC LIMIT 1) AS seal_png
       FROM sessions s ${SESSION_NOTARY_JOINS}
      WHERE s.id = $1`,
    { bind: [sessionId] },
  );
  const facts = rows[0];
  const participants = await queryRows<{
    role: string;
    first_name: string | null;
    last_name: string | null;
    email: string;
    details: Record<string, unknown>;
  }>(
    sequelize,
    `SELECT role, first_name, last_name, email, details FROM participants WHERE session_id = $1 ORDER BY role DESC, index`,
    { bind: [sessionId] },
  );
  const nameOf = (p: (typeof participants)[number]) =>
    [p.first_name, p.last_name].filter(Boolean).join(' ') || p.email;
  // A certificate without the notary's commission would misstate a legal act: refuse rather than print one.
  // Sessions cannot start without it, so this guards rows written before commissions were required.
  if (!facts.notary_name || !facts.notary_state || !facts.commission_number || !facts.commission_expires_on)
    throw new Error(`session ${sessionId}: the notary has no commission on file`);
  const commission = {
    commissionNumber: facts.commission_number,
    commissionExpiresOn: facts.commission_expires_on,
  };
  // Network notaries have no stored seal: theirs is rendered from the same commission facts.
  const sealPng =
    facts.seal_png ??
    renderSeal({ stateCode: facts.notary_state, notaryName: facts.notary_name, ...commission }).png;
  return {
    accountId: facts.account_id,
    actTypes: (facts.options.notarization_types ?? 'Acknowledgement').split(','),
    venue: { state: stateName(facts.notary_state) ?? facts.notary_state, county: facts.notary_county },
    performedAt: facts.completed_at ? new Date(facts.completed_at) : new Date(),
    notary: { name: facts.notary_name, ...commission },
    sealPng,
    signers: participants
      .filter((p) => p.role === 'signer')
      .map((p) => ({
        name: nameOf(p),
        identityMethod: IDENTITY_METHODS[String(p.details.authentication_type)] ?? 'not specified',
      })),
    witnesses: participants.filter((p) => p.role === 'witness').map((p) => ({ name: nameOf(p) })),
  } satisfies Omit<NotarialActContext, 'sessionId' | 'document'> & { accountId: string };
}
