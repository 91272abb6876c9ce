import type { NetworkWitness, ParticipantKey, ParticipantRef } from './messages';
import type { SessionPlan } from './plan';

/** What a session's workflow is started with (`session-{bn_session_id}`), and what a run hands the next. */
export interface SessionWorkflowInput {
  sessionId: string;
  /** The PostgreSQL transaction (xid8) that writes the session's rows: the workflow asks whether it committed. */
  transactionId: string;
  accountId: string;
  notarizationId: string | null;
  /** auto_expire_session_on: an unfinished session expires at this instant (ISO 8601). */
  expiresAt?: string;
  plan: SessionPlan;
  /** Set when a session waiting for a network notary continued as new: what it keeps from before. */
  resume?: ResumedSession;
}

/** What a session hands the fresh run it continues as new in. */
export interface ResumedSession {
  joined: ParticipantRef[];
  /** Epoch ms since which its signer has been waiting for a notary. */
  waitingSince?: number;
  verified: ParticipantKey[];
  /** Identity checks already recorded, so a retried report records nothing twice. */
  recordedChecks: string[];
  /** The network witnesses announced in the session's places, so a fresh run announces only changes. */
  networkWitnesses: NetworkWitness[];
  /** The run's place in the session's chain of runs (the first is 0). */
  generation: number;
}
