import type { WorkSession } from '../../core/wire/workList';

export type { Commission, Evidence, WorkList, WorkPerson, WorkSession } from '../../core/wire/workList';

const STATUS: Record<string, string> = {
  awaiting_pretag: 'Documents being tagged',
  scheduled: 'Scheduled',
  awaiting_notary: 'Waiting for a notary',
  ready: 'Ready to start',
  in_progress: 'In session',
  completed: 'Completed',
  expired: 'Expired',
  cancelled: 'Cancelled',
};

const DOCUMENTS: Record<string, string> = {
  pending: 'documents being sealed',
  held: 'documents waiting for your release',
  released: 'documents sent',
  failed: 'documents need attention from the operator',
};

/** A status a person reads: "Completed, documents waiting for your release". */
export function readableStatus(s: WorkSession): string {
  const status = STATUS[s.status] ?? s.status.replace(/_/g, ' ');
  return s.status === 'completed'
    ? `${status}, ${DOCUMENTS[s.documents_status] ?? s.documents_status}`
    : status;
}

export const titleOf = (s: WorkSession) => `Session ${s.notarization_id || s.bn_session_id.slice(0, 8)}`;

/** Which of the console's three groups a session is in: an offer, work to do, or done. */
export function groupOf(s: WorkSession): 'offers' | 'active' | 'done' {
  if (s.relation === 'offered') return 'offers';
  const finished =
    ['expired', 'cancelled'].includes(s.status) ||
    (s.status === 'completed' && s.documents_status !== 'held');
  return finished ? 'done' : 'active';
}

/** "4 min" / "1 h 5 min": how long something has lasted. */
export function duration(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 1) return 'under a minute';
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** A time with its zone, as a person acts on it. */
export const withZone = (iso: string) =>
  new Date(iso).toLocaleString([], {
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  });
