import { SESSION_UNREACHABLE } from '../../temporal/sessionUpdates';
import Joi from 'joi';
import { failBodySchema } from '../openapi/document';
import { endedLinkResponse } from './participants';
import type { SigningService } from '../../signatures/signingService';
import { renderMark } from '../../signatures/adoptedMarks';
import { MARK_SIZE, MAX_MARK_TEXT, MAX_POINTS, MAX_STROKES } from '../../../core/session/marks';
import { malformed } from '../../domain/errors';
import type { ApiRoutes, RouteDefinition } from '../routeTable';
import type { RateLimitKind } from '../middleware/rateLimit';
import type { AppContext } from '../context';
import { markOf, markText, placeBody, signerIndex, signingViewSchema, styles } from './signingSchemas';

const token = Joi.object({ token: Joi.string().description('The participant’s signing-link token') });
const png = (description: string) => ({ description, contentType: 'image/png' });
const failure = (description: string) => ({ description, schema: failBodySchema });
const COMMON = {
  404: failure('Unknown link, document, page or place'),
  409: failure('Not joined yet, or not in the act’s time (see the message)'),
  410: endedLinkResponse,
};
const client = (ctx: AppContext) => ({ ip: ctx.ip, userAgent: ctx.get('user-agent').slice(0, 512) });

function sendPng(ctx: AppContext, body: Buffer): void {
  ctx.type = 'image/png';
  ctx.set('Cache-Control', 'private, max-age=300');
  ctx.body = body;
}

/** A route of the signing link; what a page loads by the dozen counts only misses against the rate limit. */
function linkRoute<B, Q, P>(
  def: Omit<RouteDefinition<B, Q, P>, 'tags' | 'auth' | 'signingLink' | 'rateLimit'>,
  rateLimit: RateLimitKind = 'link',
): RouteDefinition<B, Q, P> {
  return { ...def, tags: ['Signing'], auth: 'none', signingLink: true, rateLimit };
}

/** Consent to electronic records and signatures, and the adopted signature and initials. */
function consentAndAdoptionRoutes(site: ApiRoutes, signing: SigningService): void {
  site.add<{ signer_index?: number }, unknown, { token: string }>(
    linkRoute({
      method: 'post',
      path: '/sign/{token}/consent',
      operationId: 'participantConsent',
      summary: 'Consent to use electronic records and signatures (ESIGN)',
      description:
        'Recorded once, with its time, the client’s address and user agent, and the disclosure’s version.',
      params: token,
      body: Joi.object({ signer_index: signerIndex, accepted: Joi.boolean().valid(true).required() }),
      responses: {
        200: {
          description: 'Consented',
          schema: Joi.object({ response: 'Pass', consented_at: Joi.string() }),
        },
        400: failure('`accepted` is not true'),
        403: failure('Not this link’s to do for that signer'),
        ...COMMON,
      },
      handler: async (ctx, { params, body }) => {
        ctx.body = {
          response: 'Pass',
          ...(await signing.consent(params.token, body.signer_index, client(ctx))),
        };
      },
    }),
  );
  site.add<{ signer_index?: number; signature: never; initials: never }, unknown, { token: string }>(
    linkRoute({
      method: 'post',
      path: '/sign/{token}/adopted_signature',
      operationId: 'participantAdoptSignature',
      summary: 'Adopt a signature and initials: typed in a handwriting style, or drawn',
      description:
        `Rendered by the service as transparent PNGs (signature ${MARK_SIZE.signature.width}×${MARK_SIZE.signature.height}, ` +
        `initials ${MARK_SIZE.initials.width}×${MARK_SIZE.initials.height}); typed text at most ${MAX_MARK_TEXT} ` +
        `characters, drawn marks at most ${MAX_STROKES} strokes and ${MAX_POINTS} points. Changeable until the first application.`,
      params: token,
      body: Joi.object({
        signer_index: signerIndex,
        signature: markOf('signature').required(),
        initials: markOf('initials').required(),
      }),
      responses: {
        200: { description: 'Adopted; the signing view', schema: signingViewSchema },
        400: failure(
          'Not a mark: unknown style, empty or long text, too many strokes or points, a point off its canvas',
        ),
        403: failure('Not this link’s to do for that signer'),
        ...COMMON,
      },
      handler: async (ctx, { params, body }) => {
        const points = [body.signature, body.initials].reduce(
          (n, m: { strokes?: number[][][] }) => n + (m.strokes ?? []).reduce((k, s) => k + s.length, 0),
          0,
        );
        if (points > MAX_POINTS) throw malformed(`A drawn mark has at most ${MAX_POINTS} points`);
        ctx.body = {
          response: 'Pass',
          ...(await signing.adopt(params.token, body.signer_index, {
            signature: body.signature,
            initials: body.initials,
          })),
        };
      },
    }),
  );
  markImageRoutes(site, signing);
}

/** The adopted marks as images, and a typed mark's preview in each style. */
function markImageRoutes(site: ApiRoutes, signing: SigningService): void {
  site.add<unknown, { signer_index?: number }, { token: string; kind: 'signature' | 'initials' }>(
    linkRoute(
      {
        method: 'get',
        path: '/sign/{token}/adopted_signature/{kind}',
        operationId: 'participantAdoptedMark',
        summary: 'The adopted signature or initials, as applied',
        params: token.keys({ kind: Joi.string().valid('signature', 'initials') }),
        query: Joi.object({ signer_index: signerIndex }),
        responses: {
          200: png('The mark'),
          403: failure('Not this link’s to see for that signer'),
          ...COMMON,
        },
        handler: async (ctx, { params, query }) =>
          sendPng(ctx, await signing.adoptedMark(params.token, query.signer_index, params.kind)),
      },
      'link_misses',
    ),
  );
  site.add<unknown, { style: string; text: string; kind: 'signature' | 'initials' }, { token: string }>(
    linkRoute(
      {
        method: 'get',
        path: '/sign/{token}/signature_preview',
        operationId: 'participantSignaturePreview',
        summary: 'A typed mark in one handwriting style, as it would be adopted',
        params: token,
        query: Joi.object({
          style: Joi.string()
            .valid(...styles)
            .required(),
          text: markText(),
          kind: Joi.string().valid('signature', 'initials').default('signature'),
        }),
        responses: { 200: png('The preview'), 400: failure('Unknown style, or no text'), ...COMMON },
        handler: async (ctx, { params, query }) => {
          await signing.view(params.token);
          sendPng(
            ctx,
            renderMark(query.kind, { method: 'typed', style: query.style as never, text: query.text }),
          );
        },
      },
      'link_misses',
    ),
  );
}

/** The documents and their places, as the participant sees them. */
function viewingRoutes(site: ApiRoutes, signing: SigningService): void {
  site.add<unknown, unknown, { token: string }>(
    linkRoute(
      {
        method: 'get',
        path: '/sign/{token}/signing',
        operationId: 'participantSigning',
        summary: 'The documents, their places and everyone’s progress, as this participant signs them',
        params: token,
        responses: { 200: { description: 'The signing view', schema: signingViewSchema }, ...COMMON },
        handler: async (ctx, { params }) => {
          ctx.body = { response: 'Pass', ...(await signing.view(params.token)) };
        },
      },
      'link_misses',
    ),
  );
  site.add<unknown, unknown, { token: string; document_id: string; page: number }>(
    linkRoute(
      {
        method: 'get',
        path: '/sign/{token}/documents/{document_id}/pages/{page}',
        operationId: 'participantDocumentPage',
        summary: 'One page of a session document, as an image',
        params: token.keys({
          document_id: Joi.string().guid(),
          page: Joi.number().integer().min(1).max(10_000),
        }),
        responses: {
          200: png('The page, 1000 px wide (narrower where that would be over 2000 px tall)'),
          422: failure('The page cannot be rendered (remembered for ten minutes)'),
          503: failure('Pages cannot be rendered now, or the account’s pages are queued: retry'),
          ...COMMON,
        },
        handler: async (ctx, { params }) =>
          sendPng(ctx, await signing.pageImage(params.token, params.document_id, params.page)),
      },
      'link_misses',
    ),
  );
}

/** Each application at a place, and where the participant is. */
function applyingRoutes(site: ApiRoutes, signing: SigningService): void {
  site.add<{ document_id: string; place_id: string; signer_index?: number }, unknown, { token: string }>(
    linkRoute({
      method: 'post',
      path: '/sign/{token}/signatures',
      operationId: 'participantApplySignature',
      summary: 'Apply the adopted signature or initials at one of your places',
      description:
        'While the session is in progress, after consent and adoption. Recorded with the time, the client, and the ' +
        'document’s state before it (SHA-256 of its bytes and the marks applied so far); counted by the session, ' +
        'which publishes `signature_applied`, and `signer_completed` at the participant’s last place. A retry of ' +
        'an application already made answers 200.',
      params: token,
      body: placeBody,
      responses: {
        200: { description: 'Applied; the signing view', schema: signingViewSchema },
        403: failure('The place is another participant’s'),
        ...COMMON,
        409: {
          ...failure(
            'Not in progress, not consented, no mark adopted, the session is opening its places, or, in a live ' +
              'act, the signer or the notary is not on camera (`Turn on your camera and microphone to sign`, ' +
              '`Signing waits until the notary is back in the room`)',
          ),
          headers: { 'Retry-After': 'When the session is opening its places' },
        },
        503: failure(SESSION_UNREACHABLE),
      },
      handler: async (ctx, { params, body }) => {
        ctx.body = { response: 'Pass', ...(await signing.apply(params.token, body, client(ctx))) };
      },
    }),
  );
  site.add<{ document_id: string; place_id: string; signer_index?: number }, unknown, { token: string }>(
    linkRoute(
      {
        method: 'post',
        path: '/sign/{token}/signing_focus',
        operationId: 'participantSigningFocus',
        summary: 'The place this participant’s page shows now (the notary follows it)',
        params: token,
        body: placeBody,
        responses: {
          200: { description: 'Noted', schema: Joi.object({ response: 'Pass' }) },
          403: failure('Not this link’s to do for that signer'),
          ...COMMON,
        },
        handler: async (ctx, { params, body }) => {
          await signing.focus(params.token, body);
          ctx.body = { response: 'Pass' };
        },
      },
      'link_misses',
    ),
  );
}

/** The participant's signing in the session: their documents, consent, adoption and each application. */
export function registerSigningRoutes(site: ApiRoutes, signing: SigningService): void {
  viewingRoutes(site, signing);
  consentAndAdoptionRoutes(site, signing);
  applyingRoutes(site, signing);
}
