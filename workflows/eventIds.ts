import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import type { EventData, EventName } from './events';

/** Events a session publishes at most once in its life: its beginning, each step of its course, its end. */
export const ONCE_PER_SESSION_EVENTS = [
  'session_created',
  'invites_sent',
  'session_started',
  'session_completed',
  'documents_released',
  'session_expired',
  'session_cancelled',
] as const satisfies readonly EventName[];

const publishedOnce = (event: EventName): boolean =>
  (ONCE_PER_SESSION_EVENTS as readonly EventName[]).includes(event);

const hashed = (text: string): string => `evt_${bytesToHex(sha256(utf8ToBytes(text))).slice(0, 32)}`;

/**
 * An event's id (the webhook's `webhook-id`, the audit record's key). The events table, the audit chain
 * and the deliveries take an id they already hold as a publish done before, so an id must name the
 * same event wherever it is computed again. A workflow task can be lost after its local steps
 * published (a worker dies before Temporal accepts the task), and the task run again may take another
 * path when more arrived meanwhile: a random id drawn at the same point would then go to another
 * event, which would be dropped as a repeat, and the lost task's event would be published again under
 * a new id. So an event a session publishes once is named by the session and the event, and any other
 * by the point it was drawn at (`drawn`, random and replayed alike), the event and its data.
 */
export function eventId<E extends EventName>(
  sessionId: string,
  drawn: string,
  event: E,
  data: EventData[E],
): string {
  return publishedOnce(event)
    ? hashed(`${sessionId}\n${event}`)
    : hashed(`${sessionId}\n${drawn}\n${event}\n${JSON.stringify(data)}`);
}
