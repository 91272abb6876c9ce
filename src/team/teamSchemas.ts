import Joi from 'joi';
import { usState } from '../validation/usState';
import { plainText } from '../validation/text';

export interface InviteInput {
  email: string;
  business_role: 'notary' | 'pretagger' | 'admin';
  first_name: string;
  last_name: string;
  password?: string;
  state?: string;
  county?: string;
  commission_number?: string;
  commission_expires_on?: string;
  vendor_user_id?: string;
  role_options?: Record<string, 'yes' | 'no'>;
  optional_metadata?: Record<string, unknown>;
}

/** bcrypt with cost factor 10, as the spec requires of pre-hashed passwords. */
const BCRYPT_COST_10 = /^\$2[aby]\$10\$[./A-Za-z0-9]{53}$/;
const yesNo = Joi.string().valid('yes', 'no');
const MAX_METADATA_BYTES = 8 * 1024;

const commissionFields = {
  state: usState.description('Commission state; stored as its two-letter code'),
  county: plainText(100).min(1),
  commission_number: plainText(50).min(1),
  commission_expires_on: Joi.string()
    .isoDate()
    .custom((value: string) => value.slice(0, 10))
    .meta({ format: 'date' })
    .description('Date (YYYY-MM-DD); an ISO 8601 date-time is also taken, its date kept'),
};

export const inviteSchema = Joi.object<InviteInput>({
  email: Joi.string().trim().email().max(254).required(),
  business_role: Joi.string().valid('notary', 'pretagger', 'admin').required(),
  first_name: plainText(100).min(1).required(),
  last_name: plainText(100).min(1).required(),
  password: Joi.string()
    .pattern(BCRYPT_COST_10)
    .rule({
      message: { 'string.pattern.base': '{{#label}} must be a bcrypt hash with cost factor 10 ($2b$10$…)' },
    })
    .description('Pre-hashed bcrypt (cost 10); omitted: the service generates one'),
  ...commissionFields,
  vendor_user_id: plainText(255),
  role_options: Joi.object({ notaryCanInviteSignerForSession: yesNo, showInvoiceTabToUser: yesNo }),
  optional_metadata: Joi.object()
    .unknown(true)
    .custom((value: object, helpers) =>
      JSON.stringify(value).length > MAX_METADATA_BYTES ? helpers.error('object.size') : value,
    )
    .rule({ message: { 'object.size': `{{#label}} must be at most ${MAX_METADATA_BYTES} bytes of JSON` } }),
}).label('InviteTeamMember');

/** Joi details as spec 7.3's `errors: [{param, msg}]`. */
export function joiErrors(error: Joi.ValidationError): Array<{ param: string; msg: string }> {
  return error.details.map((d) => ({ param: d.path.join('.'), msg: d.message }));
}

/** A notary's own onboarding: the four commission facts, and the name as commissioned if it differs. */
export interface OnboardingInput {
  state: string;
  county: string;
  commission_number: string;
  commission_expires_on: string;
  first_name?: string;
  last_name?: string;
}

export const onboardingSchema = Joi.object<OnboardingInput>({
  state: commissionFields.state.required(),
  county: commissionFields.county.required(),
  commission_number: commissionFields.commission_number.required(),
  commission_expires_on: commissionFields.commission_expires_on.required(),
  first_name: plainText(100).min(1).description('Name as commissioned; default: the name the vendor invited'),
  last_name: plainText(100).min(1),
}).label('NotaryOnboarding');
