import Joi from 'joi';

/** GET /me/sessions: what the notary console shows of each session. */
const person = Joi.object({
  index: Joi.number().integer(),
  name: Joi.string().allow(''),
  joined: Joi.boolean(),
  joined_at: Joi.string().isoDate().allow(null),
  identity: Joi.string()
    .valid('verified', 'waived', 'not_verified', 'not_asked')
    .description('Where their identity check stands; `waived`: authentication_type skip'),
  identity_evidence: Joi.object({
    method: Joi.string().valid('kba', 'id_check', 'waived', 'notary'),
    outcome: Joi.string().valid('passed', 'failed', 'skipped', 'in_progress'),
    attempt: Joi.number().integer(),
    provider: Joi.string().allow(null).description('The identity provider that ran the check'),
    score: Joi.string().description('KBA: right answers of the questions, e.g. `4 of 5`'),
    reasons: Joi.array().items(Joi.string()).description('What the provider returned when it did not pass'),
    locked_until: Joi.string().isoDate().allow(null).description('Locked out of identity checks until then'),
    checked_at: Joi.string().isoDate().allow(null),
  })
    .allow(null)
    .description('Their latest identity check, the evidence the notary relies on; null before any'),
  source: Joi.string().valid('invited', 'network'),
  you: Joi.boolean().description('A network witness: this place is yours'),
});
export const workListResponse = Joi.object({
  you: Joi.object({
    kind: Joi.string().valid('team', 'network'),
    role: Joi.string().valid('notary', 'pretagger', 'admin', 'witness'),
  }).description(
    'Who is signed in: a team member of the account, or a person of the network, and their role',
  ),
  commission: Joi.object({
    state: Joi.string(),
    commission_number: Joi.string(),
    commission_expires_on: Joi.string()
      .pattern(/^\d{4}-\d{2}-\d{2}$/)
      .description('The commission’s last day (YYYY-MM-DD)'),
    ends_at: Joi.string()
      .isoDate()
      .description('When the commission ends: the close of its expiry day in its jurisdiction’s time'),
    receives_offers: Joi.boolean().description(
      'Whether the network offers you sessions: only while at least 24 hours of your commission are left',
    ),
  }).description('A network notary’s commission on file (network notaries only)'),
  sessions: Joi.array().items(
    Joi.object({
      bn_session_id: Joi.string().guid(),
      notarization_id: Joi.string().allow(null),
      account_name: Joi.string().description('The account that asked for the session'),
      session_type: Joi.string(),
      notarization_types: Joi.array().items(Joi.string()).description('The notarial acts asked for'),
      state_specific_notary: Joi.string().allow(null).description('The commission state asked for, if any'),
      start: Joi.object({
        allowed: Joi.boolean(),
        reason: Joi.string().allow(null).description('Why it cannot start now: the 409 a start would answer'),
      }).description('Whether the session’s rules let its notary start it now'),
      status: Joi.string(),
      documents_status: Joi.string(),
      relation: Joi.string()
        .valid('offered', 'assigned', 'witness')
        .description('`offered`: yours to accept until `offer_expires_at`; `assigned`: yours to act on'),
      offer_expires_at: Joi.string().isoDate().allow(null),
      session_timing: Joi.string().isoDate().allow(null),
      updated_at: Joi.string().isoDate(),
      signers: Joi.array().items(person),
      witnesses: Joi.array().items(person),
      documents: Joi.array().items(
        Joi.object({
          id: Joi.string().guid(),
          name: Joi.string(),
          content_type: Joi.string(),
          pages: Joi.number().integer().allow(null),
        }),
      ),
      test: Joi.boolean().description('Only on a test-mode session (always true): it has no live room'),
    }),
  ),
});
