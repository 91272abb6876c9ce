import Joi from 'joi';
import type { ParticipantJourneys } from '../../participants/journey';
import type { Journey } from '../../../core/wire/journey';
import type { SessionStatusChanges } from '../../sessions/statusChanges';
import { SESSION_STATUSES, type CancelledBy, type SessionStatus } from '../../../core/session/messages';
import { completionPage, endedPage, signingPage } from '../pages/participantPage';
import { failBodySchema } from '../openapi/document';
import { DomainError } from '../../domain/errors';
import type { ApiRoutes, RouteDefinition } from '../routeTable';
import { answerTo } from '../middleware/errors';
import type { CompletionQuery } from '../../participants/completionLinks';

const participantSchema = Joi.object({
  bn_session_id: Joi.string().guid(),
  status: Joi.string().valid(...SESSION_STATUSES),
  role: Joi.string().valid('signer', 'witness'),
  index: Joi.number().integer(),
  first_name: Joi.string().allow(null),
  last_name: Joi.string().allow(null),
  session_timing: Joi.string().isoDate().allow(null),
  joined_at: Joi.string().isoDate().allow(null),
}).label('Participant');

const identityStateSchema = Joi.object({
  method: Joi.string().valid('kba', 'biometrics', 'skip', 'none'),
  status: Joi.string().valid('not_required', 'waived', 'pending', 'in_progress', 'passed', 'locked_out'),
  attempts: Joi.number().integer(),
  attempts_left: Joi.number().integer().allow(null),
  locked_until: Joi.string().isoDate().allow(null),
  open_check: Joi.object({ check_id: Joi.string().guid(), deadline: Joi.string().isoDate() }).allow(null),
  last_failure: Joi.object({
    attempt: Joi.number().integer(),
    reasons: Joi.array().items(Joi.string()),
  }).allow(null),
  verified_at: Joi.string().isoDate().allow(null),
}).label('IdentityState');

export const journeySchema = participantSchema
  .keys({
    step: Joi.string()
      .valid('not_open', 'join', 'verify', 'locked_out', 'waiting', 'in_session')
      .description('Where the participant is: join, then verify their identity, then wait for the notary'),
    account: Joi.object({ name: Joi.string(), brand_color: Joi.string().allow(null) }),
    documents: Joi.array().items(
      Joi.object({ name: Joi.string(), pages: Joi.number().integer().allow(null) }),
    ),
    notary: Joi.object({ name: Joi.string() }).allow(null),
    identity: identityStateSchema,
    same_device_signers: Joi.array()
      .items(Joi.object({ index: Joi.number().integer(), name: Joi.string(), identity: identityStateSchema }))
      .allow(null)
      .description(
        "Same-device signing, for the host: every signer's identity check, done on the host's device",
      ),
    notary_late: Joi.boolean().description(
      'The participant was admitted (or the scheduled session opened) NOTARY_LATE_AFTER (default 5 minutes) ago and ' +
        'the session has not started: the page shows `delay_modal`',
    ),
    notary_late_at: Joi.string()
      .isoDate()
      .allow(null)
      .description(
        'While the participant waits and the notary is not late yet: when `notary_late` turns true',
      ),
    delay_modal: Joi.object({
      title: Joi.string(),
      message: Joi.string(),
      actions: Joi.array().items(Joi.object({ label: Joi.string(), url: Joi.string() })),
    }).description("The session's delay_threshold, else the account's, else the service's own"),
    test: Joi.boolean().description(
      'Only on a test-mode session (always true): no live room; the notary completes it through the API',
    ),
  })
  .label('ParticipantJourney');

/** A link whose session has ended: how it ended, and for a completed one the completion page. */
export const endedLinkResponse = {
  description: 'The session has ended; the link no longer works',
  schema: failBodySchema.keys({
    status: Joi.string()
      .valid(...SESSION_STATUSES)
      .description('How the session ended'),
    completion_url: Joi.string()
      .uri()
      .description('A completed session’s completion page, signed for this participant'),
    cancelled_by: Joi.string()
      .valid('account', 'notary', 'operator')
      .description('Who cancelled a cancelled session, as its `session_cancelled` event says'),
  }),
};

const tokenParams = Joi.object({
  token: Joi.string().description('The pre-authenticated token of one participant'),
});

/** How long a page waiting for the session to move is held before it is answered as it stands. */
const WAIT_MS = 8_000;

/**
 * The participant's journey; with `wait_while_status`, once the session's status is another, or after
 * WAIT_MS (the waiting room hears of the notary's start at once rather than at its next poll).
 */
async function journeyOnceMoved(
  signing: ParticipantJourneys,
  statusChanges: SessionStatusChanges,
  token: string,
  waitWhile: string | undefined,
): Promise<Journey> {
  const journey = await signing.journey(token);
  if (!waitWhile || journey.status !== waitWhile) return journey;
  // Held until the status moves, or the notary turns late (the page's modal), or WAIT_MS.
  const lateIn = journey.notary_late_at ? Date.parse(journey.notary_late_at) - Date.now() : Infinity;
  const change = statusChanges.next(journey.bn_session_id, Math.max(0, Math.min(WAIT_MS, lateIn)));
  // Read again once listening: a change between the two reads is not missed.
  const current = await signing.journey(token);
  if (current.status !== waitWhile) {
    change.cancel();
    return current;
  }
  await change.done;
  return signing.journey(token);
}

function signingPageRoute(
  signing: ParticipantJourneys,
  statusChanges: SessionStatusChanges,
): RouteDefinition<unknown, { wait_while_status?: string }, { token: string }> {
  return {
    method: 'get',
    path: '/sign/{token}',
    rateLimit: 'link',
    operationId: 'signingPage',
    summary: "A participant's signing page (JSON with Accept: application/json)",
    tags: ['Participants'],
    auth: 'none',
    params: tokenParams,
    query: Joi.object({
      wait_while_status: Joi.string()
        .valid(...SESSION_STATUSES)
        .description(
          'JSON only: answer once the session’s status is another than this one, or after 8 s (a page in the waiting room)',
        ),
    }),
    responses: {
      200: {
        description: 'The participant, their session and where they are in it',
        schema: journeySchema,
        alsoHtml: true,
      },
      404: { description: 'Unknown link', schema: failBodySchema, alsoHtml: true },
      410: { ...endedLinkResponse, alsoHtml: true },
    },
    handler: async (ctx, { params, query }) => {
      const wantsJson = ctx.accepts('html', 'json') === 'json';
      let journey;
      try {
        // Only a page's own poll waits; a person opening the link gets the page at once.
        const waitWhile = wantsJson ? query.wait_while_status : undefined;
        journey = await journeyOnceMoved(signing, statusChanges, params.token, waitWhile);
      } catch (err) {
        if (wantsJson || !(err instanceof DomainError)) throw err;
        ctx.status = answerTo(err).status;
        ctx.type = 'html';
        ctx.body = endedPage(
          {
            status: err.details.status as SessionStatus | undefined,
            message: err.message,
            completionUrl: err.details.completion_url as string | undefined,
            cancelledBy: err.details.cancelled_by as CancelledBy | undefined,
          },
          await signing.brandOfLink(params.token),
        );
        return;
      }
      if (wantsJson) {
        ctx.body = journey;
        return;
      }
      ctx.type = 'html';
      ctx.body = signingPage(
        journey,
        (await signing.brandOfLink(params.token)) ?? { ...journey.account, logo: null },
      );
    },
  };
}

/** Join the session as this participant (idempotent) */
function joinSessionRoute(
  signing: ParticipantJourneys,
): RouteDefinition<unknown, unknown, { token: string }> {
  return {
    method: 'post',
    path: '/sign/{token}/join',
    rateLimit: 'link',
    signingLink: true,
    operationId: 'joinSession',
    summary: 'Join the session as this participant (idempotent)',
    description:
      'The session judges the join and records it: `joined_at` once and one `join_session` event; a repeated join ' +
      'answers 200 and records nothing new. 409 before the session opens (pretag hold, or before `session_timing`, ' +
      'with `Retry-After`), after it ends, and for a non-host signer in same-device mode.',
    tags: ['Participants'],
    auth: 'none',
    params: tokenParams,
    responses: {
      200: {
        description: 'Joined',
        schema: participantSchema.keys({ response: Joi.string().valid('Pass') }),
      },
      404: { description: 'Unknown link', schema: failBodySchema },
      409: {
        description: 'The session is not open to this participant now',
        schema: failBodySchema,
        headers: { 'Retry-After': 'Seconds until session_timing, for a scheduled session' },
      },
    },
    handler: async (ctx, { params }) => {
      ctx.body = { response: 'Pass', ...(await signing.join(params.token)) };
    },
  };
}

/** Completion page; redirects to the account’s completion redirect URL when set */
function completionPageRoute(signing: ParticipantJourneys): RouteDefinition<unknown, CompletionQuery> {
  return {
    method: 'get',
    path: '/complete',
    rateLimit: 'link',
    operationId: 'completionPage',
    summary: 'Completion page; redirects to the account’s completion redirect URL when set',
    description:
      'Participants reach it from the link the service gives them (the completion e-mail, the signing page once the ' +
      'session is complete): it is signed and expires with COMPLETION_LINK_TTL_SECONDS. With that link, the page ' +
      'shows the session and its documents, or sends participants of an account with a completion redirect URL there ' +
      'with `notarization_id` as a query parameter. Without a valid link it shows nothing of any session: an ' +
      'integrator’s reference is often a guessable loan number.',
    tags: ['Participants'],
    auth: 'none',
    query: Joi.object({
      notarization_id: Joi.string().max(255).allow(''),
      bn_session_id: Joi.string().guid(),
      expires: Joi.string().max(12),
      signature: Joi.string().max(100),
    }),
    responses: {
      200: { description: 'Completion page', contentType: 'text/html' },
      302: {
        description: 'Redirect to the account’s completion URL',
        headers: { Location: 'The redirect target' },
      },
    },
    handler: async (ctx, { query }) => {
      const facts = await signing.completion(query);
      if (facts?.completion_redirect_url) {
        const target = new URL(facts.completion_redirect_url);
        target.searchParams.set('notarization_id', query.notarization_id ?? '');
        ctx.redirect(target.toString());
        return;
      }
      ctx.type = 'html';
      ctx.body = completionPage(
        facts,
        facts ? query.notarization_id : undefined,
        facts ? await signing.brandOfSession(facts.session_id) : undefined,
      );
    },
  };
}

export function registerParticipantRoutes(
  api: ApiRoutes,
  signing: ParticipantJourneys,
  statusChanges: SessionStatusChanges,
): void {
  api.add(signingPageRoute(signing, statusChanges));

  api.add(joinSessionRoute(signing));

  api.add(completionPageRoute(signing));
}
