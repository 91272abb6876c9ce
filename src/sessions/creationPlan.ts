import { workflowIdOf, type SessionStatus, type SessionWorkflowInput } from '../../core/session/messages';
import type { SessionColumns } from './sessionRows';
import type { CreateSessionRequest } from './createRequest';
import { hostIndexOf } from './participants';
import { identityRequiredOf } from '../proofing/requirements';

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
  notaryMemberId: string | null,
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
    notaryMemberId,
    options: sessionOptions(input),
    workflowId: workflowIdOf(sessionId),
  };
}

/** What the session's workflow is started with: timings, the notary asked for, how documents go out. */
export function workflowInputOf(
  sessionId: string,
  accountId: string,
  input: CreateSessionRequest,
  notaryMemberId: string | null,
): SessionWorkflowInput {
  return {
    sessionId,
    accountId,
    notarizationId: input.notarization_id ?? null,
    startAt:
      input.notarization_timing_type === 'notarize_later'
        ? new Date(input.session_timing!).toISOString()
        : undefined,
    expiresAt: input.session_configurations?.auto_expire_session_on
      ? new Date(input.session_configurations.auto_expire_session_on).toISOString()
      : undefined,
    holdInvitesUntilPretagged: input.send_invite_after_pretagging,
    deliveryMode: input.final_documents_delivery_mode,
    notary: notaryMemberId
      ? { kind: 'team', memberId: notaryMemberId, state: input.state_specific_notary }
      : { kind: 'network', state: input.state_specific_notary },
    primarySignerIndex: primarySignerIndex(input),
    invitedWitnesses: input.witnesses?.invited_witness_details?.length ?? 0,
    serviceWitnesses: input.witnesses?.number_of_service_witnesses ?? 0,
    identityRequired: identityRequiredOf(input),
  };
}

/** The first signer, or in same-device signing the host (the only one who joins, spec 2.2). */
function primarySignerIndex(input: CreateSessionRequest): number {
  return input.session_configurations?.same_device_signing_mode === 'all' ? hostIndexOf(input) : 0;
}
