/** Session events delivered to webhooks (contract §5). */
export const EVENT_NAMES = [
  'session_created',
  'invites_sent',
  'notary_assigned',
  'join_session',
  'session_started',
  'session_completed',
  'documents_released',
  'session_expired',
  'session_cancelled',
  'document_added',
  // Beyond the contract's list: failures an integrator must act on (see the OpenAPI decisions).
  'email_bounced',
  'documents_failed',
  // The on-demand network: a notary who accepted and did not start was released; a network witness
  // was assigned.
  'notary_released',
  'witness_assigned',
  // Identity proofing of participants: a pass, a failed quiz or ID check, and a lockout after the
  // last allowed attempt.
  'identity_verified',
  'kba_failed',
  'id_check_failed',
  'participant_locked_out',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];
