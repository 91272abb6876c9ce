import { workflowIdOf, type SessionStatus } from '../../core/session/messages';
import type { SessionWorkflowInput } from '../../core/session/workflowInput';
import type { SessionColumns } from './sessionRows';
import type { CreateSessionRequest } from './createRequest';
import type { SessionPlan } from '../../core/session/plan';

/** Options kept with the session for later stages (display, completion, certificates). */
export function sessionOptions(input: CreateSessionRequest) {
  return {
    notarization_types: input.notarization_types,
    state_specific_notary: input.state_specific_notary ?? null,
    final_documents_delivery_mode: input.final_documents_delivery_mode,
    send_invite_after_pretagging: input.send_invite_after_pretagging,
    witnesses: {
      number_of_service_witnesses: input.witnesses?.number_of_service_witnesses ?? 0,
      service_witness_id_auth_required: input.witnesses?.service_witness_id_auth_required ?? false,
    },
    loan_details: input.loan_details ?? null,
    session_configurations: input.session_configurations ?? {},
  };
}

/** The session's own row: what was asked, the status it starts in, its team notary if it named one. */
export function sessionColumnsOf(
  sessionId: string,
  accountId: string,
  input: CreateSessionRequest,
  status: SessionStatus,
  plan: SessionPlan,
): SessionColumns {
  return {
    id: sessionId,
    accountId,
    notarizationId: input.notarization_id ?? null,
    status,
    signingType: input.signing_type,
    sessionType: input.session_type,
    notarizationTimingType: input.notarization_timing_type,
    sessionTiming: input.notarization_timing_type === 'notarize_later' ? input.session_timing! : null,
    expiresAt: input.session_configurations?.auto_expire_session_on ?? null,
    notaryMemberId: plan.notary.kind === 'team' ? plan.notary.memberId : null,
    options: sessionOptions(input),
    plan,
    workflowId: workflowIdOf(sessionId),
  };
}

/** What the session's workflow is started with: its plan, and when an unfinished session expires. */
export function workflowInputOf(
  sessionId: string,
  accountId: string,
  input: CreateSessionRequest,
  plan: SessionPlan,
  transactionId: string,
): SessionWorkflowInput {
  return {
    sessionId,
    transactionId,
    accountId,
    notarizationId: input.notarization_id ?? null,
    expiresAt: input.session_configurations?.auto_expire_session_on
      ? new Date(input.session_configurations.auto_expire_session_on).toISOString()
      : undefined,
    plan,
  };
}
