/**
 * What a signing link's page reads: the participant's journey (GET /sign/{token}), their identity check's
 * state, a KBA quiz and a check's answer. Declared once: the server builds them, web/participant reads them.
 */
import type { AskedCheck } from '../session/identityChecks';
import type { SessionStatus } from '../session/messages';

/** The late-notary modal (spec 2.5): a session's delay_threshold, else its account's, else this. */
export interface DelayModal {
  title: string;
  message: string;
  actions: Array<{ label: string; url: string }>;
}

export interface IdentityState {
  /** What the session asks: `kba`, `biometrics`, `skip` (waived), or `none` (nothing asked). */
  method: AskedCheck;
  /** `not_required`, `waived`, `pending` (may try), `in_progress` (a quiz is open), `passed`, `locked_out`. */
  status: 'not_required' | 'waived' | 'pending' | 'in_progress' | 'passed' | 'locked_out';
  attempts: number;
  attempts_left: number | null;
  locked_until: string | null;
  /** The open KBA quiz, so a reload resumes it. */
  open_check: { check_id: string; deadline: string } | null;
  last_failure: { attempt: number; reasons: string[] } | null;
  /** When the check passed (or was waived). */
  verified_at: string | null;
}

export interface KbaQuestion {
  id: string;
  prompt: string;
  choices: Array<{ id: string; text: string }>;
}

export interface KbaQuiz {
  check_id: string;
  attempt: number;
  deadline: string;
  questions: KbaQuestion[];
}

/** The answer to a KBA quiz's answers or an ID check's photos. */
export interface CheckAnswer {
  check_id: string;
  attempt: number;
  outcome: 'passed' | 'failed';
  correct?: number;
  total?: number | null;
  reasons: string[];
  locked_until: string | null;
  retake_until: string | null;
}

export interface ParticipantView {
  bn_session_id: string;
  status: SessionStatus;
  role: 'signer' | 'witness';
  index: number;
  first_name: string | null;
  last_name: string | null;
  session_timing: string | null;
  joined_at: string | null;
}

/** Where the participant is on their way through the session, for the signing page. */
export type JourneyStep = 'not_open' | 'join' | 'verify' | 'locked_out' | 'waiting' | 'in_session';

export interface Journey extends ParticipantView {
  step: JourneyStep;
  account: { name: string; brand_color: string | null };
  documents: Array<{ name: string; pages: number | null }>;
  notary: { name: string } | null;
  identity: IdentityState;
  /** Same-device signing, for the host: each signer and their identity check, done on the host's device. */
  same_device_signers: Array<{ index: number; name: string; identity: IdentityState }> | null;
  notary_late: boolean;
  /** While waiting and not late yet: when the late-notary modal shows if the notary has not started. */
  notary_late_at: string | null;
  delay_modal: DelayModal;
  /** Set on a test-mode session: no live room, no notarial act. */
  test?: true;
}
