import Joi from 'joi';
import type { NotarySignatures } from '../../signatures/notarySignatures';
import { renderMark, type MarkInput } from '../../signatures/adoptedMarks';
import { MARK_SIZE, MAX_MARK_TEXT, MAX_POINTS, MAX_STROKES } from '../../../core/session/marks';
import { failBodySchema } from '../openapi/document';
import { workerOf } from '../context';
import type { ApiRoutes } from '../routeTable';
import { markOf, markText, styles } from './signingSchemas';

const failure = (description: string) => ({ description, schema: failBodySchema });
const png = (description: string) => ({ description, contentType: 'image/png' });
const notNotary = failure('Not a notary: `Only a notary adopts a notary signature`');

/** The signed-in notary's own signature: adopted once in the console, applied wherever they sign. */
export function registerNotarySignatureRoutes(api: ApiRoutes, signatures: NotarySignatures): void {
  api.add<{ signature: MarkInput }>({
    method: 'post',
    path: '/me/signature',
    operationId: 'adoptNotarySignature',
    summary: 'Adopt your signature as a notary: typed in a handwriting style, or drawn',
    description:
      `As signers adopt theirs: rendered by the service as a transparent PNG of ${MARK_SIZE.signature.width}×` +
      `${MARK_SIZE.signature.height}; typed text at most ${MAX_MARK_TEXT} characters, a drawn mark at most ` +
      `${MAX_STROKES} strokes and ${MAX_POINTS} points. It is applied on the certificate, on the signature page and ` +
      'at every `notary_signature` place of the acts you complete from then on; a live act cannot be completed ' +
      'before you adopt one. Adopting again replaces it for later acts; documents already notarized keep theirs.',
    tags: ['Notary console'],
    auth: 'person',
    body: Joi.object({ signature: markOf('signature').required() }),
    responses: {
      200: {
        description: 'Adopted',
        schema: Joi.object({
          response: Joi.string().valid('Pass').required(),
          signature: Joi.object({
            method: Joi.string().valid('typed', 'drawn').required(),
            adopted_at: Joi.string().isoDate().required(),
          }).required(),
        }),
      },
      400: failure(
        'Not a mark: unknown style, empty or long text, too many strokes or points, a point off its canvas',
      ),
      403: notNotary,
    },
    handler: async (ctx, { body }) => {
      ctx.body = { response: 'Pass', signature: await signatures.adopt(workerOf(ctx), body.signature) };
    },
  });
  api.add({
    method: 'get',
    path: '/me/signature',
    operationId: 'notarySignature',
    summary: 'Your adopted signature, as applied',
    tags: ['Notary console'],
    auth: 'person',
    responses: {
      200: png('The mark'),
      403: notNotary,
      404: failure('`You have not adopted a signature yet`'),
    },
    handler: async (ctx) => {
      ctx.type = 'image/png';
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await signatures.image(workerOf(ctx));
    },
  });
  api.add<unknown, { style: string; text: string }>({
    method: 'get',
    path: '/me/signature_preview',
    operationId: 'notarySignaturePreview',
    summary: 'A typed signature in one handwriting style, as it would be adopted',
    tags: ['Notary console'],
    auth: 'person',
    query: Joi.object({
      style: Joi.string()
        .valid(...styles)
        .required(),
      text: markText(),
    }),
    responses: { 200: png('The preview'), 400: failure('Unknown style, or no text') },
    handler: async (ctx, { query }) => {
      ctx.type = 'image/png';
      ctx.set('Cache-Control', 'private, max-age=300');
      ctx.body = renderMark('signature', { method: 'typed', style: query.style as never, text: query.text });
    },
  });
}
