import Joi from 'joi';
import type { IdentityProofing } from '../../proofing/identityProofing';
import type { IdentityParticipant } from '../../proofing/participant';
import type { ParticipantLookup } from '../../reads/participantLookup';
import { failBodySchema } from '../openapi/document';
import type { ApiRoutes, RouteDefinition } from '../routeTable';
import { networkPersonAs, type AppContext } from '../context';

/** A phone's photo of an ID, in base64: 3 MiB of image each. */
const MAX_IMAGE_BASE64 = 4 * 1024 * 1024;
const ID_CHECK_BODY_BYTES = 14 * 1024 * 1024;

const signerIndex = Joi.number()
  .integer()
  .min(0)
  .max(19)
  .description("Same-device signing: the host verifies each signer on the host's device, naming them here");

const quizSchema = Joi.object({
  response: Joi.string().valid('Pass'),
  check_id: Joi.string().guid(),
  attempt: Joi.number().integer(),
  deadline: Joi.string().isoDate().description('Answers after this instant fail the attempt'),
  questions: Joi.array().items(
    Joi.object({
      id: Joi.string(),
      prompt: Joi.string(),
      choices: Joi.array().items(Joi.object({ id: Joi.string(), text: Joi.string() })),
    }),
  ),
}).label('KbaQuiz');

const outcomeSchema = Joi.object({
  response: Joi.string().valid('Pass'),
  check_id: Joi.string().guid(),
  attempt: Joi.number().integer(),
  outcome: Joi.string().valid('passed', 'failed'),
  correct: Joi.number().integer(),
  total: Joi.number().integer(),
  reasons: Joi.array().items(Joi.string()),
  locked_until: Joi.string().isoDate().allow(null).description('Set when this failure used the last attempt'),
  retake_until: Joi.string()
    .isoDate()
    .allow(null)
    .description('A failure that leaves a retake: start it before this'),
  document: Joi.string().valid('authentic', 'rejected', 'unreadable'),
  face: Joi.string().valid('match', 'no_match', 'not_checked'),
}).label('IdentityOutcome');

const image = (what: string) =>
  Joi.string()
    .base64()
    .max(MAX_IMAGE_BASE64)
    .description(`${what}: a JPEG or PNG photo in base64, at most 3 MiB`);

const idCheckBody = Joi.object({
  id_front: image('The front of a government-issued photo ID').required(),
  id_back: image('The back of the ID'),
  selfie: image("A photo of the person's face, taken now").required(),
  signer_index: signerIndex,
}).label('IdCheckRequest');

const conflictResponse = {
  description:
    'Not now: the session has ended, the participant has not joined, another check is asked, identity is already ' +
    'verified, or it is locked after too many failed attempts (`Retry-After` until the lockout ends)',
  schema: failBodySchema,
  headers: { 'Retry-After': 'Seconds until a locked-out participant may try again' },
};
const linkNotFound = { description: 'Unknown link', schema: failBodySchema };

const IDENTITY_RULES =
  'The rules are configuration, Texas’s by default: KBA_QUESTIONS 5 questions of KBA_CHOICES 5 choices, ' +
  'KBA_PASS_PERCENT 80 % correct within KBA_TIME_LIMIT 2 minutes; IDENTITY_ATTEMPTS 2 (the first and one retake ' +
  'within IDENTITY_RETAKE_WINDOW 24 h, with at least KBA_RETAKE_NEW_PERCENT 60 % new questions), then ' +
  'IDENTITY_LOCKOUT 24 h. Every outcome is an event: `identity_verified`, `kba_failed`, `id_check_failed`, and ' +
  '`participant_locked_out` with the failure that used the last attempt.';

const tokenParams = Joi.object({ token: Joi.string().description('The participant’s signing-link token') });
const signerIndexRefused = {
  description: 'signer_index names no signer, or this link may not name one',
  schema: failBodySchema,
};
const photoRefused = {
  description:
    'A photo that is not a JPEG or PNG, or smaller than the check reads (ID 300×190 pixels, face 200×200): ' +
    '`Retake the photo: …`, refused before the identity provider sees it; no attempt is used',
  schema: failBodySchema,
};

const idCheck = {
  method: 'post' as const,
  summary: 'Check a government ID (credential analysis) and match a selfie to it',
  description:
    'One attempt per request: the provider analyses the ID’s images and matches the selfie to its portrait. ' +
    `Images are passed to the provider and not kept by the service. ${IDENTITY_RULES}`,
  tags: ['Participants'],
  bodyLimitBytes: ID_CHECK_BODY_BYTES,
  body: idCheckBody,
  responses: {
    200: { description: 'The attempt’s outcome', schema: outcomeSchema },
    404: linkNotFound,
    409: conflictResponse,
    413: { description: 'The body is over 14 MiB', schema: failBodySchema },
    422: photoRefused,
  },
};

const imagesOf = (body: { id_front: string; id_back?: string; selfie: string }) => ({
  id_front: Buffer.from(body.id_front, 'base64'),
  id_back: body.id_back ? Buffer.from(body.id_back, 'base64') : undefined,
  selfie: Buffer.from(body.selfie, 'base64'),
});

interface ProofingDeps {
  identity: IdentityProofing;
  participants: ParticipantLookup;
}

/** The participant a signing link stands for (or, for a same-device host, the signer they name). */
async function byToken(
  deps: ProofingDeps,
  token: string,
  signerIndex?: number,
): Promise<IdentityParticipant> {
  return deps.identity.participantFor(await deps.participants.byToken(token), signerIndex);
}

/** POST /sign/{token}/identity/kba */
function startKbaRoute(
  deps: ProofingDeps,
): RouteDefinition<{ signer_index?: number }, unknown, { token: string }> {
  return {
    method: 'post',
    path: '/sign/{token}/identity/kba',
    rateLimit: 'link',
    signingLink: true,
    operationId: 'startKba',
    summary: 'Start (or resume) a knowledge-based authentication quiz',
    description:
      'For participants whose check is `kba`, after joining. Answers go to `POST /sign/{token}/identity/kba/{check_id}/answers` ' +
      'before `deadline`; an attempt left unanswered past it counts as failed. Starting while a quiz is open returns ' +
      `that quiz. ${IDENTITY_RULES}`,
    tags: ['Participants'],
    auth: 'none',
    params: tokenParams,
    body: Joi.object({ signer_index: signerIndex }),
    responses: {
      200: { description: 'The quiz', schema: quizSchema },
      404: linkNotFound,
      409: conflictResponse,
      422: signerIndexRefused,
    },
    handler: async (ctx, { params, body }) => {
      ctx.body = {
        response: 'Pass',
        ...(await deps.identity.startKba(await byToken(deps, params.token, body?.signer_index))),
      };
    },
  };
}

/** POST /sign/{token}/identity/kba/{check_id}/answers */
function answerKbaRoute(
  deps: ProofingDeps,
): RouteDefinition<
  { answers: Array<{ question_id: string; choice_id: string }>; signer_index?: number },
  unknown,
  { token: string; check_id: string }
> {
  return {
    method: 'post',
    path: '/sign/{token}/identity/kba/{check_id}/answers',
    rateLimit: 'link',
    signingLink: true,
    operationId: 'answerKba',
    summary: 'Answer the open KBA quiz',
    description:
      'Scores the attempt once; sending the answers again returns the same outcome. A pass admits the participant ' +
      '(once joined); a failure leaves a retake (`retake_until`) or locks them out (`locked_until`).',
    tags: ['Participants'],
    auth: 'none',
    params: Joi.object({ token: Joi.string(), check_id: Joi.string().guid() }),
    body: Joi.object({
      answers: Joi.array()
        .items(
          Joi.object({
            question_id: Joi.string().max(40).required(),
            choice_id: Joi.string().max(8).required(),
          }),
        )
        .max(10)
        .required(),
      signer_index: signerIndex,
    }),
    responses: {
      200: { description: 'The attempt’s outcome', schema: outcomeSchema },
      404: { description: 'Unknown link or check', schema: failBodySchema },
      409: conflictResponse,
      422: signerIndexRefused,
    },
    handler: async (ctx, { params, body }) => {
      const participant = await byToken(deps, params.token, body.signer_index);
      const answers = body.answers.map((a) => ({ questionId: a.question_id, choiceId: a.choice_id }));
      ctx.body = {
        response: 'Pass',
        ...(await deps.identity.answerKba(participant, params.check_id, answers)),
      };
    },
  };
}

/** POST /sign/{token}/identity/id_check */
function idCheckRoute(
  deps: ProofingDeps,
): RouteDefinition<
  { id_front: string; id_back?: string; selfie: string; signer_index?: number },
  unknown,
  { token: string }
> {
  return {
    ...idCheck,
    path: '/sign/{token}/identity/id_check',
    rateLimit: 'link',
    signingLink: true,
    operationId: 'checkParticipantId',
    auth: 'none',
    params: tokenParams,
    responses: {
      ...idCheck.responses,
      422: {
        ...photoRefused,
        description: `${photoRefused.description}; or ${signerIndexRefused.description}`,
      },
    },
    handler: async (ctx, { params, body }) => {
      const participant = await byToken(deps, params.token, body.signer_index);
      ctx.body = { response: 'Pass', ...(await deps.identity.checkId(participant, imagesOf(body))) };
    },
  };
}

/** POST /me/sessions/{id}/identity/id_check: a network witness checks their ID */
function networkWitnessIdCheckRoute(
  deps: ProofingDeps,
): RouteDefinition<{ id_front: string; id_back?: string; selfie: string }, unknown, { id: string }> {
  return {
    ...idCheck,
    path: '/me/sessions/{id}/identity/id_check',
    operationId: 'checkNetworkWitnessId',
    summary:
      'A network witness checks their ID for a session that asks it (`service_witness_id_auth_required`)',
    auth: 'person',
    params: Joi.object({ id: Joi.string().guid() }),
    body: idCheckBody.fork(['signer_index'], (s) => s.forbidden()),
    responses: {
      ...idCheck.responses,
      403: {
        description: 'Not a network witness: `Only a network witness does this`',
        schema: failBodySchema,
      },
    },
    handler: async (ctx: AppContext, { params, body }) => {
      const person = networkPersonAs(ctx, 'witness');
      const participant = await deps.identity.participantFor(
        await deps.participants.asNetworkWitness(person.id, params.id),
      );
      ctx.body = { response: 'Pass', ...(await deps.identity.checkId(participant, imagesOf(body))) };
    },
  };
}

/**
 * Identity proofing through a signing link (signers and invited witnesses) and through a network
 * witness's own sign-in. Routes find the participant and call the identity service.
 */
export function registerProofingRoutes(site: ApiRoutes, api: ApiRoutes, deps: ProofingDeps): void {
  site.add(startKbaRoute(deps));
  site.add(answerKbaRoute(deps));
  site.add(idCheckRoute(deps));
  api.add(networkWitnessIdCheckRoute(deps));
}
