/** What GET /me/sessions answers: the console's work list (src/http/routes/workListSchema.ts). */
export interface Evidence {
  method: 'kba' | 'id_check' | 'waived' | 'notary';
  outcome: 'passed' | 'failed' | 'skipped' | 'in_progress';
  attempt: number;
  provider: string | null;
  score?: string;
  reasons: string[];
  locked_until: string | null;
  checked_at: string | null;
}

export interface WorkPerson {
  index: number;
  name: string;
  joined: boolean;
  joined_at: string | null;
  identity: 'verified' | 'waived' | 'not_verified' | 'not_asked';
  identity_evidence: Evidence | null;
  source?: 'invited' | 'network';
  you?: boolean;
}

export interface WorkSession {
  bn_session_id: string;
  notarization_id: string | null;
  account_name: string;
  session_type: string;
  notarization_types: string[];
  state_specific_notary: string | null;
  start: { allowed: boolean; reason: string | null };
  status: string;
  documents_status: string;
  relation: 'offered' | 'assigned' | 'witness';
  offer_expires_at: string | null;
  session_timing: string | null;
  signers: WorkPerson[];
  witnesses: WorkPerson[];
  documents: Array<{ id: string; name: string; content_type: string; pages: number | null }>;
  test?: boolean;
}

export interface Commission {
  commission_number: string;
  commission_expires_on: string;
  ends_at: string;
  receives_offers: boolean;
}

export interface WorkList {
  you: { kind: 'team' | 'network'; role: string };
  commission?: Commission;
  sessions: WorkSession[];
}

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
