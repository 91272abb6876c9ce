import type { CreateSessionInput, DocumentInput } from '../../core/session/request';
import Joi from 'joi';
import {
  ANNOTATION_FIELD_TYPES,
  ANNOTATION_ROLES,
  AUTHENTICATION_TYPES,
  DELIVERY_MODES,
  DOCUMENT_EXTENSIONS,
  LOAN_SESSION_TYPES,
  MAX_DOCUMENTS_PER_REQUEST,
  MAX_INVITED_WITNESSES,
  MAX_SERVICE_WITNESSES,
  MAX_SIGNERS,
  NOTARIAL_ACTS,
  NOTARIAL_ACT_SPELLINGS,
  SAME_DEVICE_MODES,
  SESSION_TYPES,
  SIGNING_TYPES,
  SUFFIXES,
  TIMING_TYPES,
  DEFAULT_NOTARIAL_ACT,
} from '../../core/vocabulary';
import { usState } from '../validation/usState';
import { plainText } from '../validation/text';
import { base64Doc } from '../validation/base64Doc';
import type { Base64Upload } from '../documents/base64Upload';

/** ISO 8601 date-time that carries a UTC offset (`Z` or `±hh:mm`). */
const OFFSET_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

const offsetDateTime = () =>
  Joi.string()
    .pattern(OFFSET_DATETIME)
    .rule({
      message: {
        'string.pattern.base':
          '{{#label}} must be an ISO 8601 date-time with a UTC offset, e.g. 2026-12-01T15:00:00-05:00',
      },
    })
    .custom((value: string, helpers) =>
      Number.isNaN(Date.parse(value)) ? helpers.error('date.base') : value,
    )
    .rule({ message: { 'date.base': '{{#label}} must be a valid date-time' } });

/** Free text that may span lines (instructions, the delay modal's message). */
const paragraph = (max: number) => Joi.string().trim().max(max);
const text = plainText;

/** `true`/`false` as a boolean or its string form, as the spec shows both. */
const looseBoolean = () => Joi.boolean().truthy('true').falsy('false');

export const annotationSchema = Joi.object({
  fieldType: Joi.string()
    .valid(...ANNOTATION_FIELD_TYPES)
    .required(),
  pageNum: Joi.number().integer().min(1).required().description('1-based page number'),
  x: Joi.number().min(0).required().description('Points from the left edge of the page'),
  y: Joi.number().min(0).required().description('Points from the top edge of the page'),
  width: Joi.number().greater(0).required(),
  height: Joi.number().greater(0).required(),
  role: Joi.string()
    .valid(...ANNOTATION_ROLES)
    .required(),
  participant_index: Joi.number()
    .integer()
    .min(0)
    .default(0)
    .description(
      'Which signer or witness (0-based, in request order) the field belongs to; ignored for the notary',
    ),
}).label('Annotation');

// Any case (Deed.PDF) spelled out per letter: a JSON Schema pattern cannot carry the `i` flag.
const anyCase = (text: string) => [...text].map((c) => `[${c.toLowerCase()}${c.toUpperCase()}]`).join('');
const documentName = plainText(255)
  .min(1)
  .pattern(new RegExp(`\\.(?:${Object.keys(DOCUMENT_EXTENSIONS).map(anyCase).join('|')})$`))
  .rule({
    message: { 'string.pattern.base': '{{#label}} must end in .pdf, .docx, .txt, .jpg, .jpeg or .png' },
  });

export const documentSchema = Joi.object({
  name: documentName.required(),
  base64Doc: base64Doc()
    .required()
    .description(
      'Strict base64 (no data: prefix, no line breaks) of at most 10 MB (10 × 1024 × 1024 bytes) decoded',
    ),
  applyTemplate: Joi.string()
    .guid()
    .description('A template of this account whose original PDF has the same bytes as this document'),
  annotations: Joi.array().items(annotationSchema).max(500).default([]),
  notary_can_edit_documents: Joi.boolean().default(false),
}).label('SessionDocument');

const signerSchema = Joi.object({
  email: Joi.string().trim().email().max(254).required(),
  first_name: text(100).min(1).required(),
  last_name: text(50).min(1).required(),
  middle_name: text(100).allow(''),
  suffix: Joi.string().valid(...SUFFIXES),
  address: text(255).allow(''),
  city: text(100).allow(''),
  state: Joi.string()
    .trim()
    .pattern(/^[A-Za-z]{2}$/)
    .rule({ message: { 'string.pattern.base': '{{#label}} must be a two-letter state abbreviation' } }),
  zip: text(20).allow(''),
  contact_method: text(50).allow(''),
  contact_details: text(100).allow(''),
  authentication_type: Joi.string()
    .valid(...AUTHENTICATION_TYPES)
    .description(
      'How the signer proves their identity before the session admits them; `kba` when omitted. `skip` is ' +
        'recorded as waived by the account that created the session.',
    ),
  is_shared_device_owner: Joi.boolean(),
}).label('Signer');

const invitedWitnessSchema = Joi.object({
  email: Joi.string().trim().email().max(254).required(),
  firstname: text(100).allow(''),
  lastname: text(50).allow(''),
  phoneNumber: text(50).allow(''),
  witnessAdressLine1: text(255).allow(''),
  witnessAddressState: text(50).allow(''),
  isPhysicallyPresent: Joi.boolean(),
  need_id_auth: Joi.boolean(),
}).label('InvitedWitness');

const loanDetailsSchema = Joi.object({
  loan_number: text(100).allow(''),
  loan_session_type: Joi.string().valid(...LOAN_SESSION_TYPES),
  other_loan_session_type: text(255).allow(''),
  other_details: Joi.object({
    property_address: text(255).allow(''),
    property_city: text(100).allow(''),
    property_state: text(50).allow(''),
    property_zip: text(20).allow(''),
    session_instructions: paragraph(2000).allow(''),
  }),
}).label('LoanDetails');

/** The late-notary modal (spec 2.5), of a session or, as its default, of an account. */
export const delayThresholdSchema = Joi.object({
  title: text(200),
  message: paragraph(2000),
  actions: Joi.array()
    .items(
      Joi.object({
        label: text(100).min(1).required(),
        url: Joi.string()
          .uri({ scheme: ['http', 'https', 'tel'] })
          .custom((value: string, helpers) =>
            !value.toLowerCase().startsWith('tel:') || /^tel:\+?[0-9][0-9().-]{2,30}$/i.test(value)
              ? value
              : helpers.message({ custom: '{{#label}} must be a phone number such as tel:+14095550188' }),
          )
          .required()
          .description('An https or http page, or a `tel:` number to call (e.g. `tel:+14095550188`)'),
      }),
    )
    .max(2),
}).label('DelayThreshold');

const sessionConfigurationsSchema = Joi.object({
  auto_expire_session_on: offsetDateTime().description('ISO 8601 with offset; must be in the future'),
  notary_can_edit_documents: Joi.boolean().default(false),
  same_device_signing_mode: Joi.string().valid(...SAME_DEVICE_MODES),
  delay_threshold: delayThresholdSchema,
}).label('SessionConfigurations');

/** The act `name` stands for, in the spelling the service stores, or undefined. */
function notarialAct(name: string) {
  const lower = name.toLowerCase();
  return NOTARIAL_ACTS.find((known) => known.toLowerCase() === lower) ?? NOTARIAL_ACT_SPELLINGS.get(lower);
}

const notarizationTypes = Joi.string()
  .custom((value: string, helpers) => {
    const acts = value.split(',').map((part) => part.trim());
    const normalised = acts.map(notarialAct);
    if (!acts.length || normalised.some((act) => !act)) return helpers.error('any.invalid');
    return [...new Set(normalised)].join(',');
  })
  .rule({
    message: { 'any.invalid': `{{#label}} must be a comma-separated list of: ${NOTARIAL_ACTS.join(', ')}` },
  })
  .default(DEFAULT_NOTARIAL_ACT);

/** The field rules of spec 2.1–2.6; the ordered rules of spec 7.1 run before it (createRules.ts). */
export const createSessionSchema = Joi.object({
  signing_type: Joi.string()
    .valid(...SIGNING_TYPES)
    .required(),
  notarization_id: Joi.string()
    .max(255)
    .pattern(/^[A-Za-z0-9]+$/)
    .rule({ message: { 'string.pattern.base': '{{#label}} must be alphanumeric' } }),
  all_signers: Joi.array().items(signerSchema).min(1).max(MAX_SIGNERS).required(),
  session_type: Joi.string()
    .valid(...SESSION_TYPES)
    .default('closing'),
  notarization_timing_type: Joi.string()
    .valid(...TIMING_TYPES)
    .required(),
  session_timing: offsetDateTime().description('Required for notarize_later; ISO 8601 with a UTC offset'),
  session_notary_email: Joi.string().trim().email().max(254),
  state_specific_notary: usState.description('US state name or abbreviation; stored as its two-letter code'),
  notarization_types: notarizationTypes,
  witnesses: Joi.object({
    number_of_service_witnesses: Joi.number().integer().min(0).max(MAX_SERVICE_WITNESSES).default(0),
    service_witness_id_auth_required: Joi.boolean().default(false),
    invited_witness_details: Joi.array().items(invitedWitnessSchema).max(MAX_INVITED_WITNESSES).default([]),
  }).label('Witnesses'),
  session_documents: Joi.array().items(documentSchema).max(MAX_DOCUMENTS_PER_REQUEST),
  document_templates: Joi.array().items(Joi.string().guid()).max(MAX_DOCUMENTS_PER_REQUEST).unique(),
  final_documents_delivery_mode: Joi.string()
    .valid(...DELIVERY_MODES)
    .default('immediately'),
  send_invite_after_pretagging: looseBoolean().default(false),
  loan_details: loanDetailsSchema.when('session_type', {
    is: 'closing',
    then: Joi.required().messages({
      'any.required': 'loan_details is required when session_type is closing',
    }),
  }),
  session_configurations: sessionConfigurationsSchema,
}).label('CreateSessionRequest');

export const addDocumentsSchema = Joi.object({
  session_documents: Joi.array().items(documentSchema).min(1).max(MAX_DOCUMENTS_PER_REQUEST).required(),
}).label('AddDocumentsRequest');

/** The create request as the service reads it: its documents' content decoded as it arrived. */
export type CreateSessionRequest = CreateSessionInput<Base64Upload>;
export type DocumentRequest = DocumentInput<Base64Upload>;
