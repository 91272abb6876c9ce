/**
 * GET /me/sessions: the console's work list, declared once: src/network/workQueue.ts builds it, the
 * console (web/console/) reads it, src/http/routes/workListSchema.ts describes it for OpenAPI.
 */
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
  updated_at: string;
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
