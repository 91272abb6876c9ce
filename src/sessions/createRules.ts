import type Joi from 'joi';
import { refused, DomainError } from '../domain/errors';
import { VALIDATION_OPTIONS } from '../validation/options';
import { createSessionSchema, type CreateSessionRequest } from './createRequest';
import { Base64Upload } from '../documents/base64Upload';
import { stateCode } from '../../core/usStates';

/** Spec 7.1: every create failure is a 403 whose identifier fields are empty strings. */
export function createFailure(message: string): DomainError {
  return refused(message, { notarization_id: '', bn_session_id: '', bn_signing_url: '' });
}

export const SPEC_MESSAGES = {
  timingTypeMissing: 'notarization_timing_type fields are missing in request',
  signingTypeMissing: 'signing_type fields are missing in request',
  sessionTimingMissing: 'session_timing is required when notarization_timing_type is notarize_later',
  invalidNotaryEmail: 'Invalid session_notary_email',
  noSigners: 'all_signers must have at least one signer',
  noDocuments: 'session_documents or document_templates required',
  documentTooLarge: 'Document exceeds maximum file size',
} as const;

const absent = (value: unknown) => value === undefined || value === null || value === '';
const nonEmptyArray = (value: unknown) => Array.isArray(value) && value.length > 0;

export function documentTooLarge(documents: unknown): boolean {
  return (
    Array.isArray(documents) &&
    documents.some((doc) => doc && doc.base64Doc instanceof Base64Upload && doc.base64Doc.tooLarge)
  );
}

export interface CreateRuleContext {
  /**
   * Whether the e-mail names a linked notary of the caller's account whose commission is on file, in
   * force at `actAt` (epoch ms) and, when the session asks for one, of `state` (two-letter code).
   */
  isAccountNotary(email: string, actAt: number, state?: string): Promise<boolean>;
  now: Date;
}

/**
 * Spec 7.1's rules in its table order (the first that fails is the answer), then the field rules of
 * 2.1–2.6 and the cross-field rules, each message naming its field.
 */
export async function validateCreateRequest(
  raw: unknown,
  ctx: CreateRuleContext,
): Promise<CreateSessionRequest> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw createFailure('Request body must be a JSON object');
  const body = raw as Record<string, unknown>;
  if (absent(body.notarization_timing_type)) throw createFailure(SPEC_MESSAGES.timingTypeMissing);
  if (absent(body.signing_type)) throw createFailure(SPEC_MESSAGES.signingTypeMissing);
  if (body.notarization_timing_type === 'notarize_later' && absent(body.session_timing)) {
    throw createFailure(SPEC_MESSAGES.sessionTimingMissing);
  }
  if (!absent(body.session_notary_email)) {
    const email = body.session_notary_email;
    if (
      typeof email !== 'string' ||
      !(await ctx.isAccountNotary(email.trim(), actAtOf(body, ctx.now), askedState(body)))
    ) {
      throw createFailure(SPEC_MESSAGES.invalidNotaryEmail);
    }
  }
  if (absent(body.all_signers) || (Array.isArray(body.all_signers) && body.all_signers.length === 0)) {
    throw createFailure(SPEC_MESSAGES.noSigners);
  }
  if (!nonEmptyArray(body.session_documents) && !nonEmptyArray(body.document_templates)) {
    throw createFailure(SPEC_MESSAGES.noDocuments);
  }
  if (documentTooLarge(body.session_documents)) throw createFailure(SPEC_MESSAGES.documentTooLarge);

  const { error, value } = createSessionSchema.validate(body, VALIDATION_OPTIONS);
  if (error) throw createFailure(messageOf(error));
  const input = value as CreateSessionRequest;
  const crossField = crossFieldProblem(input, ctx.now);
  if (crossField) throw createFailure(crossField);
  return input;
}

/** The state `state_specific_notary` names; one that names none is refused by the field rules after. */
function askedState(body: Record<string, unknown>): string | undefined {
  const asked = body.state_specific_notary;
  return typeof asked === 'string' ? stateCode(asked) : undefined;
}

/** When the act is to be performed: at the scheduled time, else now. */
function actAtOf(body: Record<string, unknown>, now: Date): number {
  const scheduled =
    body.notarization_timing_type === 'notarize_later' && typeof body.session_timing === 'string'
      ? Date.parse(body.session_timing)
      : Number.NaN;
  return Number.isNaN(scheduled) ? now.getTime() : scheduled;
}

export function messageOf(error: Joi.ValidationError): string {
  return error.details[0]?.message ?? 'Invalid request';
}

function crossFieldProblem(input: CreateSessionRequest, now: Date): string | undefined {
  if (input.all_signers.filter((s) => s.is_shared_device_owner === true).length > 1) {
    return 'all_signers: only one signer may have is_shared_device_owner true';
  }
  if (
    input.loan_details?.loan_session_type === 'other' &&
    absent(input.loan_details.other_loan_session_type)
  ) {
    return 'loan_details.other_loan_session_type is required when loan_session_type is other';
  }
  const startsAt =
    input.notarization_timing_type === 'notarize_later' ? Date.parse(input.session_timing!) : undefined;
  if (startsAt !== undefined && startsAt <= now.getTime()) return 'session_timing must be in the future';
  const expiry = input.session_configurations?.auto_expire_session_on;
  if (expiry) {
    const expiresAt = Date.parse(expiry);
    if (expiresAt <= now.getTime())
      return 'session_configurations.auto_expire_session_on must be in the future';
    if (startsAt !== undefined && expiresAt <= startsAt) {
      return 'session_configurations.auto_expire_session_on must be after session_timing';
    }
  }
  return undefined;
}
