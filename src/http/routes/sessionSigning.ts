import { SESSION_UNREACHABLE } from '../../temporal/sessionUpdates';
import Joi from 'joi';
import { failBodySchema } from '../openapi/document';
import type { SessionService } from '../../sessions/sessionService';
import type { SigningService } from '../../signatures/signingService';
import { NOT_EDITABLE, type PlaceEditing } from '../../signatures/placeEditing';
import type { IdentificationBasis, NotaryIdentification } from '../../signatures/notaryIdentification';
import { annotationSchema } from '../../sessions/createRequest';
import type { Annotation } from '../../../core/session/request';
import { actorOf, type AppContext } from '../context';
import { sessionOfItsNotary } from './sessionOfItsNotary';
import type { ApiRoutes } from '../routeTable';
import { signingViewSchema } from './signingSchemas';

const ids = Joi.object({ id: Joi.string().description('bn_session_id'), document_id: Joi.string().guid() });
const placeIds = ids.keys({ annotation_id: Joi.string().max(64) });
const failure = (description: string) => ({ description, schema: failBodySchema });
const annotations = Joi.object({
  response: Joi.string().valid('Pass'),
  annotations: Joi.array().items(annotationSchema.keys({ id: Joi.string() })),
}).label('DocumentAnnotations');
const EDIT_RESPONSES = {
  200: { description: 'The document’s annotations after the change', schema: annotations },
  400: failure('Not an annotation, or a page beyond the document'),
  403: failure(`${NOT_EDITABLE}; or not the session’s notary, an admin or the account`),
  404: failure('Unknown session, document or annotation'),
  409: failure('Not ready or in progress, or the place is already signed'),
  503: failure(SESSION_UNREACHABLE),
};

const sessionFor = (ctx: AppContext, sessions: SessionService, id: string) =>
  sessionOfItsNotary(ctx, sessions, id, 'Only the session’s notary or an admin follows its signing');

/** The notary's side of the signing: following each signer, and tagging documents that allow it. */
export function registerSessionSigningRoutes(
  api: ApiRoutes,
  uses: {
    sessions: SessionService;
    signing: SigningService;
    editing: PlaceEditing;
    identification: NotaryIdentification;
  },
): void {
  const { sessions, signing } = uses;
  const common = { tags: ['Signing'], auth: 'session_actor' as const };
  api.add<unknown, unknown, { id: string }>({
    ...common,
    method: 'get',
    path: '/sessions/{id}/signing',
    operationId: 'sessionSigning',
    summary: 'The documents, their places, and each signer’s consent, progress and current place',
    params: Joi.object({ id: Joi.string() }),
    responses: {
      200: { description: 'The signing view', schema: signingViewSchema },
      404: failure('Not found'),
    },
    handler: async (ctx, { params }) => {
      const session = await sessionFor(ctx, sessions, params.id);
      ctx.body = { response: 'Pass', ...(await signing.sessionView(session.id)) };
    },
  });
  api.add<unknown, unknown, { id: string; document_id: string; page: number }>({
    ...common,
    method: 'get',
    path: '/sessions/{id}/documents/{document_id}/pages/{page}',
    operationId: 'sessionDocumentPage',
    summary: 'One page of a session document, as an image',
    params: ids.keys({ page: Joi.number().integer().min(1).max(10_000) }),
    responses: {
      200: {
        description: 'The page, 1000 px wide (narrower where that would be over 2000 px tall)',
        contentType: 'image/png',
      },
      404: failure('Unknown session, document or page'),
      422: failure('The page cannot be rendered (remembered for ten minutes)'),
      503: failure('Pages cannot be rendered now, or the account’s pages are queued: retry'),
    },
    handler: async (ctx, { params }) => {
      const session = await sessionFor(ctx, sessions, params.id);
      ctx.type = 'image/png';
      ctx.set('Cache-Control', 'private, max-age=300');
      ctx.body = await signing.sessionPage(session.id, params.document_id, params.page);
    },
  });
  api.add<unknown, unknown, { id: string; document_id: string; annotation_id: string }>({
    ...common,
    method: 'get',
    path: '/sessions/{id}/documents/{document_id}/places/{annotation_id}/mark',
    operationId: 'sessionAppliedMark',
    summary: 'The signature or initials applied at one place, as an image',
    description:
      'The mark as the signer applied it there (their adopted mark at that moment), for the notary to see ' +
      'on the page what the notarized document will carry.',
    params: placeIds,
    responses: {
      200: { description: 'The applied mark', contentType: 'image/png' },
      403: failure('Not the session’s notary, an admin or the account'),
      404: failure('Unknown session, or `No mark applied at that place`'),
    },
    handler: async (ctx, { params }) => {
      const session = await sessionFor(ctx, sessions, params.id);
      ctx.type = 'image/png';
      ctx.set('Cache-Control', 'private, max-age=300');
      ctx.body = await signing.appliedMark(session.id, params.document_id, params.annotation_id);
    },
  });
  registerTaggingRoutes(api, uses);
  registerIdentificationRoute(api, uses);
}

/** The notary's identification, in the live session, of a signer the account asked no check of. */
function registerIdentificationRoute(
  api: ApiRoutes,
  { sessions, identification }: { sessions: SessionService; identification: NotaryIdentification },
): void {
  api.add<IdentificationBasis, unknown, { id: string; index: number }>({
    tags: ['Signing'],
    auth: 'session_actor',
    method: 'post',
    path: '/sessions/{id}/signers/{index}/identification',
    operationId: 'identifySigner',
    summary: 'The notary attests how they identified a signer with no identity check, in the live session',
    description:
      'In a live account a signer with `authentication_type: skip` signs only once the session’s notary has ' +
      'identified them in the session: by personal knowledge, or by the sworn statement of a credible witness. ' +
      'Recorded as an identity check with method `notary` (event `identity_verified`), and cited on the certificate.',
    params: Joi.object({ id: Joi.string(), index: Joi.number().integer().min(0).max(99) }),
    body: Joi.object({
      basis: Joi.string().valid('personal_knowledge', 'credible_witness').required(),
      credible_witness_name: Joi.string()
        .trim()
        .min(1)
        .max(200)
        .when('basis', { is: 'credible_witness', then: Joi.required(), otherwise: Joi.forbidden() }),
    }),
    responses: {
      200: {
        description: 'Identified',
        schema: Joi.object({
          response: Joi.string().valid('Pass'),
          identified_at: Joi.string().isoDate(),
          statement: Joi.string().description('As the certificate states it'),
        }),
      },
      400: failure('No basis, or a credible witness without a name'),
      403: failure('Not the session’s notary'),
      404: failure('Unknown session or signer'),
      409: failure(
        'Not in progress, the signer has an identity check of their own, or the notary is not in the live ' +
          'room or the signer not on camera (the message names who)',
      ),
      503: failure(SESSION_UNREACHABLE),
    },
    handler: async (ctx, { params, body }) => {
      const session = await sessionFor(ctx, sessions, params.id);
      ctx.body = {
        response: 'Pass',
        ...(await identification.identify(session, actorOf(ctx), params.index, body)),
      };
    },
  });
}

/** The notary's tagging of documents that allow it: places added, moved and removed. */
function registerTaggingRoutes(
  api: ApiRoutes,
  { sessions, editing }: { sessions: SessionService; editing: PlaceEditing },
): void {
  const common = { tags: ['Signing'], auth: 'session_actor' as const };
  api.add<Annotation, unknown, { id: string; document_id: string }>({
    ...common,
    method: 'post',
    path: '/sessions/{id}/documents/{document_id}/annotations',
    operationId: 'addAnnotation',
    summary: 'Tag a place for a participant (documents with notary_can_edit_documents)',
    description:
      'While the session is ready or in progress. A durable change through the session’s workflow, audited as ' +
      '`places_changed`; a signature or initials place is one more the participant applies at before completion.',
    params: ids,
    // The notary tags places for the participants; their own seal and signature go where the document says.
    body: annotationSchema.keys({ role: Joi.string().valid('signer', 'witness').required() }),
    responses: EDIT_RESPONSES,
    handler: async (ctx, { params, body }) => {
      const session = await sessionFor(ctx, sessions, params.id);
      const all = await editing.add(session, actorOf(ctx), params.document_id, body);
      ctx.body = { response: 'Pass', annotations: all };
    },
  });
  const box = Joi.object({
    pageNum: Joi.number().integer().min(1),
    x: Joi.number().min(0),
    y: Joi.number().min(0),
    width: Joi.number().greater(0),
    height: Joi.number().greater(0),
  }).min(1);
  api.add<Record<string, number>, unknown, { id: string; document_id: string; annotation_id: string }>({
    ...common,
    method: 'post',
    path: '/sessions/{id}/documents/{document_id}/annotations/{annotation_id}',
    operationId: 'moveAnnotation',
    summary: 'Move a place (not one already signed)',
    params: placeIds,
    body: box,
    responses: EDIT_RESPONSES,
    handler: async (ctx, { params, body }) => {
      const session = await sessionFor(ctx, sessions, params.id);
      const all = await editing.move(session, actorOf(ctx), params.document_id, params.annotation_id, body);
      ctx.body = { response: 'Pass', annotations: all };
    },
  });
  api.add<unknown, unknown, { id: string; document_id: string; annotation_id: string }>({
    ...common,
    method: 'delete',
    path: '/sessions/{id}/documents/{document_id}/annotations/{annotation_id}',
    operationId: 'removeAnnotation',
    summary: 'Remove a place (not one already signed)',
    params: placeIds,
    responses: EDIT_RESPONSES,
    handler: async (ctx, { params }) => {
      const session = await sessionFor(ctx, sessions, params.id);
      const all = await editing.remove(session, actorOf(ctx), params.document_id, params.annotation_id);
      ctx.body = { response: 'Pass', annotations: all };
    },
  });
}
