import Joi from 'joi';
import type { IdCheckImages } from '../../proofing/idCheckImages';
import type { SessionService } from '../../sessions/sessionService';
import { failBodySchema } from '../openapi/document';
import type { ApiRoutes } from '../routeTable';
import { NOT_THE_SESSIONS_NOTARY, sessionOfItsNotary } from './sessionOfItsNotary';

/**
 * The photos of a participant's ID check, for the session's notary to compare with the face on camera
 * (contract §8 leaves it to us; issue 68): the account's key, an admin or the session's notary, as the
 * recording; never the participants.
 */
export function registerIdentityImageRoute(api: ApiRoutes, sessions: SessionService, images: IdCheckImages) {
  api.add<
    unknown,
    unknown,
    { id: string; role: 'signer' | 'witness'; index: number; kind: 'id_front' | 'id_back' | 'selfie' }
  >({
    method: 'get',
    path: '/sessions/{id}/participants/{role}/{index}/id_check/{kind}',
    operationId: 'participantIdCheckImage',
    summary: 'A photo of a participant’s ID check: the ID’s front or back, or the selfie',
    description:
      'From their latest ID check (a passed one first), kept as evidence beside the recording. For the ' +
      'session’s notary to compare with the face on camera; the account and an admin see it too.',
    tags: ['Signed documents'],
    auth: 'session_actor',
    params: Joi.object({
      id: Joi.string().guid().description('bn_session_id'),
      role: Joi.string().valid('signer', 'witness'),
      index: Joi.number().integer().min(0).max(99),
      kind: Joi.string().valid('id_front', 'id_back', 'selfie'),
    }),
    responses: {
      200: { description: 'The photo as it was taken (PNG or JPEG)', contentType: 'image/*' },
      403: NOT_THE_SESSIONS_NOTARY,
      404: {
        description: '`Session not found`; `Image not found` without an ID check of that photo',
        schema: failBodySchema,
      },
    },
    handler: async (ctx, { params }) => {
      const session = await sessionOfItsNotary(
        ctx,
        sessions,
        params.id,
        'Only the session’s notary or an admin sees a participant’s ID photos',
      );
      const image = await images.latest(session.id, params, params.kind);
      ctx.type = image.contentType;
      ctx.length = image.size;
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = image.stream;
    },
  });
}
