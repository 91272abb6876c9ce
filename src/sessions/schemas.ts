import { plainText } from '../validation/text';
import Joi from 'joi';
import { DOCUMENTS_STATUSES, SESSION_STATUSES } from '../../core/session/messages';
import { canonicalTimeZone } from '../team/jurisdictionTime';

/** Response shapes of the session routes, for the OpenAPI document. */

const signingUrl = {
  bn_signing_url: Joi.string().description('Relative: /sign/{token}'),
  full_signing_url: Joi.string().uri().description("Absolute, on the account's white-label base URL if set"),
};

export const createSessionResponse = Joi.object({
  response: Joi.string().valid('Pass'),
  response_message: Joi.string(),
  notarization_id: Joi.string().allow(''),
  bn_session_id: Joi.string().guid(),
  ...signingUrl,
  additional_signers_signing_urls: Joi.array().items(Joi.object(signingUrl)),
  signing_urls: Joi.array().items(Joi.object({ signer_index: Joi.number().integer(), ...signingUrl })),
  witnessess_signing_urls: Joi.array().items(
    Joi.object({ witness_index: Joi.number().integer(), email: Joi.string(), ...signingUrl }),
  ),
  test: Joi.boolean().description(
    'Only on a test-mode account’s sessions (always true): no media, no notarial act, its documents marked TEST - NOT A NOTARIAL ACT.',
  ),
}).label('CreateSessionResponse');

export const createFailureBody = Joi.object({
  response: Joi.string().valid('Fail'),
  response_message: Joi.string(),
  notarization_id: Joi.string().valid(''),
  bn_session_id: Joi.string().valid(''),
  bn_signing_url: Joi.string().valid(''),
}).label('CreateSessionFailure');

const summaryFields = {
  bn_session_id: Joi.string().guid(),
  notarization_id: Joi.string().allow(''),
  status: Joi.string().valid(...SESSION_STATUSES),
  documents_status: Joi.string().valid(...DOCUMENTS_STATUSES),
  signing_type: Joi.string(),
  session_type: Joi.string(),
  notarization_timing_type: Joi.string(),
  session_timing: Joi.string().isoDate().allow(null),
  expires_at: Joi.string().isoDate().allow(null),
  created_at: Joi.string().isoDate(),
  updated_at: Joi.string().isoDate(),
  completed_at: Joi.string().isoDate().allow(null),
  test: Joi.boolean().description(
    'Only on a test-mode account’s sessions (always true): no media, no notarial act, its documents marked TEST - NOT A NOTARIAL ACT.',
  ),
};

export const documentSummary = Joi.object({
  document_id: Joi.string().guid(),
  name: Joi.string(),
  content_type: Joi.string(),
  size_bytes: Joi.number().integer(),
  finalization_error: Joi.string().description(
    'Only while documents_status is failed: why this document could not be notarized.',
  ),
}).label('DocumentSummary');

/** Contract §8: present only while a live act is in progress. */
const presence = Joi.object({
  on_camera: Joi.boolean().description('The media server receives their audio and video in the act’s room'),
  since: Joi.string().isoDate().allow(null).description('Since when (null while off camera)'),
})
  .description(
    'During a live act: whether they are on camera now. Identifying a signer needs them on camera; ' +
      'applying a signature needs the signer and the notary on camera (else 409 naming who is missing).',
  )
  .label('Presence');

export const sessionResponse = Joi.object({
  response: Joi.string().valid('Pass'),
  ...summaryFields,
  notary: Joi.object({
    email: Joi.string(),
    name: Joi.string(),
    source: Joi.string().valid('team', 'network'),
    presence,
  }).allow(null),
  participants: Joi.array().items(
    Joi.object({
      role: Joi.string().valid('signer', 'witness'),
      index: Joi.number().integer(),
      email: Joi.string(),
      first_name: Joi.string().allow(null),
      last_name: Joi.string().allow(null),
      joined_at: Joi.string().isoDate().allow(null),
      consented_at: Joi.string()
        .isoDate()
        .allow(null)
        .description('When they consented to electronic records and signatures'),
      signed_at: Joi.string()
        .isoDate()
        .allow(null)
        .description('When they applied at their last place (null until every place of theirs is signed)'),
      presence,
    }),
  ),
  documents: Joi.array().items(
    documentSummary.keys({
      places_done: Joi.number().integer().description('Signature and initials places applied'),
      places_total: Joi.number().integer(),
    }),
  ),
}).label('Session');

export const paginationSchema = Joi.object({
  page: Joi.number().integer(),
  limit: Joi.number().integer(),
  total_items: Joi.number().integer(),
  total_pages: Joi.number().integer(),
}).label('Pagination');

export const sessionListResponse = Joi.object({
  response: Joi.string().valid('Pass'),
  data: Joi.array().items(Joi.object(summaryFields).label('SessionSummary')),
  pagination: paginationSchema,
}).label('SessionList');

export const actionResponse = Joi.object({
  response: Joi.string().valid('Pass'),
  bn_session_id: Joi.string().guid(),
  status: Joi.string().valid(...SESSION_STATUSES),
  documents_status: Joi.string().valid(...DOCUMENTS_STATUSES),
}).label('SessionActionResult');

export const documentsResponse = Joi.object({
  response: Joi.string().valid('Pass'),
  bn_session_id: Joi.string().guid(),
  documents: Joi.array().items(documentSummary),
}).label('SessionDocuments');

/**
 * A completion's body. The notary's device reports where they are, so the act is dated in their own zone
 * where their state has several (`src/team/jurisdictionTime`); the console sends it.
 */
export const completeBody = Joi.object({
  time_zone: Joi.string()
    .max(64)
    .custom(
      (value: string, helpers) =>
        canonicalTimeZone(value) ?? helpers.message({ custom: '"time_zone" must be an IANA time zone' }),
    )
    .description(
      'The IANA time zone of the notary’s device, e.g. America/Chicago. The certificate dates the act in it ' +
        'when its clock reads as one of the commission state’s zones; otherwise, and without it, in the ' +
        'state’s zone whose day ends first.',
    ),
})
  .unknown(true)
  .label('CompleteRequest');

/** Why the session is cancelled: in the audit chain and the `session_cancelled` webhook. */
export const cancelBody = Joi.object({
  reason: plainText(500)
    .min(1)
    .description(
      'Why the session is cancelled, for the audit chain and the `session_cancelled` webhook (its `data.reason`)',
    ),
})
  .unknown(true)
  .label('CancelRequest');

export const sessionIdParams = Joi.object({
  id: Joi.string().description('bn_session_id (a UUID); anything else is 404 Session not found'),
});

export const listQuery = Joi.object({
  notarization_id: Joi.string().max(255),
  status: Joi.string().valid(...SESSION_STATUSES),
  page: Joi.number().integer().min(1).default(1),
  limit: Joi.number().integer().min(1).max(100).default(25),
});
