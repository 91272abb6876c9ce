import type { SessionRow } from '../../../core/session/rows';
import type { ParticipantRow } from '../../reads/sessionReads';
import type { CreatedSession, LinkedParticipant } from '../../sessions/sessionCreation';
import type { AddedDocuments } from '../../sessions/documentAddition';
import type { Presence } from '../../reads/presence';

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

export function presentSessionSummary(row: SessionRow) {
  return {
    bn_session_id: row.id,
    notarization_id: row.notarization_id ?? '',
    status: row.status,
    documents_status: row.documents_status,
    signing_type: row.signing_type,
    session_type: row.session_type,
    notarization_timing_type: row.notarization_timing_type,
    session_timing: iso(row.session_timing),
    expires_at: iso(row.expires_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    completed_at: iso(row.completed_at),
    ...(row.test_mode ? { test: true } : {}),
  };
}

function notaryOf(row: SessionRow) {
  if (row.notary_email)
    return { email: row.notary_email, name: row.notary_name ?? null, source: 'team' as const };
  if (row.network_notary_email) {
    return {
      email: row.network_notary_email,
      name: row.network_notary_name ?? null,
      source: 'network' as const,
    };
  }
  return null;
}

/** Contract §2 `GET /sessions/{id}`; §8 each one's `presence` while a live act is in progress. */
export function presentSession(
  row: SessionRow,
  participants: Array<
    ParticipantRow & { consented_at: string | null; signed_at: string | null; presence?: Presence }
  >,
  documents: Array<{ document_id: string; name: string; content_type: string; size_bytes: number }>,
  notaryPresence?: Presence,
) {
  const summary = presentSessionSummary(row);
  const notary = notaryOf(row);
  return {
    ...summary,
    notary: notary && notaryPresence ? { ...notary, presence: notaryPresence } : notary,
    participants: participants.map((p) => ({
      role: p.role,
      index: p.index,
      email: p.email,
      first_name: p.first_name,
      last_name: p.last_name,
      joined_at: iso(p.joined_at),
      consented_at: p.consented_at,
      signed_at: p.signed_at,
      ...(p.presence ? { presence: p.presence } : {}),
    })),
    documents,
  };
}

/** Spec 2.7: both response shapes of a create, every signer's URL and every invited witness's. */
export function createResponse(created: CreatedSession) {
  const urls = (p: LinkedParticipant) => ({ bn_signing_url: p.signingPath, full_signing_url: p.signingUrl });
  const signers = created.participants.filter((p) => p.role === 'signer');
  return {
    response: 'Pass',
    response_message: 'Session created successfully',
    notarization_id: created.notarizationId,
    bn_session_id: created.sessionId,
    ...urls(signers[0]),
    additional_signers_signing_urls: signers.slice(1).map(urls),
    signing_urls: signers.map((p) => ({ signer_index: p.index, ...urls(p) })),
    witnessess_signing_urls: created.participants
      .filter((p) => p.role === 'witness')
      .map((p) => ({ witness_index: p.index, email: p.email, ...urls(p) })),
    ...(created.testMode ? { test: true } : {}),
  };
}

/** Spec 4.3's answer: the session's documents. */
export function documentsAddedResponse(added: AddedDocuments) {
  return { response: 'Pass', bn_session_id: added.sessionId, documents: added.documents };
}
