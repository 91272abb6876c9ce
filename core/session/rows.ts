import type { DocumentsStatus, SessionStatus } from './messages';
import type { SessionPlan } from './plan';

/** A session's row in `sessions`, with its notary's name and e-mail where a read joins them. */
export interface SessionRow {
  id: string;
  account_id: string;
  notarization_id: string | null;
  status: SessionStatus;
  documents_status: DocumentsStatus;
  signing_type: string;
  session_type: string;
  notarization_timing_type: string;
  session_timing: Date | null;
  expires_at: Date | null;
  notary_member_id: string | null;
  network_notary_id: string | null;
  options: Record<string, unknown>;
  plan: SessionPlan;
  test_mode: boolean;
  workflow_id: string;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
  notary_email?: string | null;
  notary_name?: string | null;
  network_notary_email?: string | null;
  network_notary_name?: string | null;
}
