/** Enumerations of the session API; published in the OpenAPI document through the Joi schemas. */

export const SIGNING_TYPES = ['ron', 'gnw', 'esign', 'ipen'] as const;
export const SESSION_TYPES = ['closing', 'gnw'] as const;
export const TIMING_TYPES = ['notarize_now', 'notarize_later'] as const;
export const DELIVERY_MODES = ['immediately', 'notary_manual'] as const;
export const AUTHENTICATION_TYPES = ['kba', 'biometrics', 'skip'] as const;
export const LOAN_SESSION_TYPES = ['HELOC', 'refinance', 'seller', 'cash', 'borrower', 'other'] as const;
export const SAME_DEVICE_MODES = ['all'] as const;
export const SUFFIXES = [
  'J',
  'Jr',
  'JR',
  'S',
  'Sr',
  'SR',
  'I',
  'II',
  'III',
  'IV',
  'V',
  'VI',
  'VII',
  'VIII',
  'IX',
  '2',
  '3',
  '4',
  '5',
  '6',
  '7',
  '8',
  '9',
] as const;

/** Notarial acts accepted in `notarization_types` (case-insensitive, stored in this spelling). */
export const NOTARIAL_ACTS = [
  'Acknowledgement',
  'Jurat',
  'Oath',
  'Affirmation',
  'Copy Certification',
  'Signature Witnessing',
] as const;

/** Other spellings of an act, by their lower case: US statutes write "acknowledgment". */
export const NOTARIAL_ACT_SPELLINGS: ReadonlyMap<string, (typeof NOTARIAL_ACTS)[number]> = new Map([
  ['acknowledgment', 'Acknowledgement'],
]);

/** The act of a session that names none. */
export const DEFAULT_NOTARIAL_ACT = 'Acknowledgement';

/** The acts a session's options ask for. */
export const actTypesOf = (options: { notarization_types?: string }): string[] =>
  (options.notarization_types ?? DEFAULT_NOTARIAL_ACT).split(',');

export const ANNOTATION_FIELD_TYPES = [
  'signature',
  'initials',
  'date_signed',
  'full_name',
  'text',
  'checkbox',
  'notary_signature',
  'notary_seal',
] as const;
export const ANNOTATION_ROLES = ['signer', 'witness', 'notary'] as const;

export const DOCUMENT_EXTENSIONS = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  txt: 'text/plain',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
} as const;

export type DocumentExtension = keyof typeof DOCUMENT_EXTENSIONS;

/** 10 MB per document, as 10 × 1024 × 1024 bytes of decoded content. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
export const MAX_DOCUMENTS_PER_REQUEST = 20;
/** Documents one session may hold over all its requests. */
export const MAX_DOCUMENTS_PER_SESSION = 50;
export const MAX_SIGNERS = 20;
export const MAX_INVITED_WITNESSES = 10;
export const MAX_SERVICE_WITNESSES = 5;
