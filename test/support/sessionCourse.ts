import type { EventName } from '../../core/session/events';

/**
 * The events of a session run through its whole course (created, invitations sent, a named notary assigned,
 * the signer joined, started, completed, documents released), in the order they are published.
 */
export const SESSION_COURSE_EVENTS: readonly EventName[] = [
  'session_created',
  'invites_sent',
  'notary_assigned',
  'join_session',
  'session_started',
  'session_completed',
  'documents_released',
];
