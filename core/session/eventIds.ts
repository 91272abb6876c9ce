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
 * Which publish of an event a session's workflow made: the run's place in its chain of runs continued as
 * new (`generation`), and how many times that run had published the same event with the same data, plus
 * one (`nth`).
 */
export interface Occurrence {
  generation: number;
  nth: number;
}

/**
 * An event's id (the webhook's `webhook-id`, the audit record's key). The events table, the audit chain
 * and the deliveries take an id they already hold as a publish done before, so an id must name the
 * same event wherever it is computed again: in a workflow task that was lost after its local steps
 * published (a worker died before Temporal accepted the task), run again, which may take another path
 * when more arrived meanwhile; and in a run an operator's reset started at an earlier point, which meets
 * again what came after it. A random id drawn at the same point would go to another event in the first
 * case, and be drawn anew in the second, each publishing an event twice under two ids. So an event a
 * session publishes once is named by the session and the event, and any other by the event, its data and
 * its occurrence: two publishes alike in all three are the same event.
 */
export function eventId<E extends EventName>(
  sessionId: string,
  event: E,
  data: EventData[E],
  { generation, nth }: Occurrence,
): string {
  return publishedOnce(event)
    ? hashed(`${sessionId}\n${event}`)
    : hashed(`${sessionId}\n${generation}\n${nth}\n${event}\n${JSON.stringify(data)}`);
}
