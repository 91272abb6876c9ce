import { invalid, DomainError } from '../domain/errors';

/** Spec 7.3 bodies of the team routes. */
export const TEAM_MESSAGES = {
  onboardingFields:
    'Missing mandatory fields for notary onboarding: state, county, commission_number, commission_expires_on',
  memberNotFound: 'Team member not found',
  linkNotFound: 'Team member link not found',
  vendorAdminNotFound: 'Vendor admin user not found',
  userNotFound: 'User not found',
  validationFailed: 'Validation failed',
} as const;

export function validationFailed(errors: Array<{ param: string; msg: string }>): DomainError {
  return invalid(TEAM_MESSAGES.validationFailed, { errors });
}

export const invalidId = (param: string) => validationFailed([{ param, msg: 'INVALID_ID' }]);
