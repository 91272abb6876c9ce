import type { ANNOTATION_FIELD_TYPES, ANNOTATION_ROLES } from '../vocabulary';

/** The session create request (spec 2.1–2.6) once validated: what every layer reads of it. */
export type Annotation = {
  fieldType: (typeof ANNOTATION_FIELD_TYPES)[number];
  pageNum: number;
  x: number;
  y: number;
  width: number;
  height: number;
  role: (typeof ANNOTATION_ROLES)[number];
  participant_index: number;
};

export interface DocumentInput<Content = unknown> {
  name: string;
  /** The document's bytes: an upload as the API decoded it. */
  base64Doc?: Content;
  applyTemplate?: string;
  annotations: Annotation[];
  notary_can_edit_documents: boolean;
}

export interface SignerInput {
  email: string;
  first_name: string;
  last_name: string;
  middle_name?: string;
  suffix?: string;
  address?: string;
  city?: string;
  state?: string;
  zip?: string;
  contact_method?: string;
  contact_details?: string;
  authentication_type?: string;
  is_shared_device_owner?: boolean;
}

export interface InvitedWitnessInput {
  email: string;
  firstname?: string;
  lastname?: string;
  [key: string]: unknown;
}

export interface CreateSessionInput<Content = unknown> {
  signing_type: string;
  notarization_id?: string;
  all_signers: SignerInput[];
  session_type: string;
  notarization_timing_type: 'notarize_now' | 'notarize_later';
  session_timing?: string;
  session_notary_email?: string;
  state_specific_notary?: string;
  notarization_types: string;
  witnesses?: {
    number_of_service_witnesses: number;
    service_witness_id_auth_required: boolean;
    invited_witness_details: InvitedWitnessInput[];
  };
  session_documents?: DocumentInput<Content>[];
  document_templates?: string[];
  final_documents_delivery_mode: 'immediately' | 'notary_manual';
  send_invite_after_pretagging: boolean;
  loan_details?: Record<string, unknown>;
  session_configurations?: {
    auto_expire_session_on?: string;
    notary_can_edit_documents: boolean;
    same_device_signing_mode?: 'all';
    delay_threshold?: Record<string, unknown>;
  };
}
