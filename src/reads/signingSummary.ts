import type { Sequelize } from 'sequelize';
import { queryRows } from '../db/query';
import { placeKeyOf, signerKeyOf } from '../../core/session/signing';
import { sessionPlaces } from './sessionPlaces';

/** What a session lookup shows of the signing: each participant's consent and signing time, each document's places. */
export async function signingSummary(sequelize: Sequelize, sessionId: string) {
  const { places } = await sessionPlaces(sequelize, sessionId);
  const applied = await queryRows<{ document: string; place: string; applied_at: Date }>(
    sequelize,
    'SELECT document_id AS document, place_id AS place, applied_at FROM signature_applications WHERE session_id = $1',
    { bind: [sessionId] },
  );
  const at = new Map(applied.map((a) => [placeKeyOf(a), a.applied_at]));
  const people = await queryRows<{ role: 'signer' | 'witness'; index: number; consented_at: Date | null }>(
    sequelize,
    'SELECT role, index, consented_at FROM participants WHERE session_id = $1',
    { bind: [sessionId] },
  );
  const participant = (p: { role: 'signer' | 'witness'; index: number }) => {
    const theirs = places.filter((x) => x.participant === signerKeyOf(p)).map((x) => at.get(placeKeyOf(x)));
    const consented = people.find((q) => q.role === p.role && q.index === p.index)?.consented_at;
    const done = theirs.length > 0 && theirs.every(Boolean);
    return {
      consented_at: consented ? consented.toISOString() : null,
      signed_at: done ? new Date(Math.max(...theirs.map((d) => d!.getTime()))).toISOString() : null,
    };
  };
  const document = (id: string) => {
    const own = places.filter((x) => x.document === id);
    return { places_done: own.filter((x) => at.has(placeKeyOf(x))).length, places_total: own.length };
  };
  return { participant, document };
}
