import Joi from 'joi';
import type { Sequelize } from 'sequelize';
import { issuedDocument } from '../../documents/issuedDocuments';
import { malformed } from '../../domain/errors';
import type { HashedBody } from '../middleware/hashedBody';
import { failBodySchema } from '../openapi/document';
import { verifyPage } from '../pages/verifyPage';
import type { ApiRoutes } from '../routeTable';

/** The largest PDF anyone may ask about (contract §8). */
export const VERIFY_MAX_BYTES = 25 * 1024 * 1024;

const issuedSchema = Joi.object({
  response: Joi.string().valid('Pass').required(),
  issued: Joi.boolean().required(),
  notarized_at: Joi.string().isoDate().description('Only when issued: the time of the notarial act'),
  notary: Joi.object({
    name: Joi.string().allow(null),
    commission_state: Joi.string().allow(null).description('Two-letter state of the notary’s commission'),
  }).description('Only when issued'),
  act: Joi.string().description('Only when issued: the notarial act’s type(s), e.g. `Acknowledgement`'),
  test: Joi.boolean().description('Only when issued: a test-mode session’s document, not a notarial act'),
}).label('VerifyAnswer');

/** Anyone holding a PDF asks whether the service released exactly these bytes; the page asks for them. */
export function registerVerifyRoutes(site: ApiRoutes, api: ApiRoutes, sequelize: Sequelize): void {
  api.add<HashedBody>({
    method: 'post',
    path: '/verify',
    operationId: 'verifyDocument',
    summary: 'Whether a PDF is exactly a notarized document the service released (no credential)',
    description:
      'The body is the PDF’s bytes (`Content-Type: application/pdf`, at most 25 MB), hashed as they arrive and ' +
      'never stored. `issued: true` only when they are byte for byte a notarized document whose session released ' +
      'it; then `notarized_at`, `notary: {name, commission_state}`, `act`, and `test` (a test-mode session’s ' +
      'document is no notarial act). A changed copy, or any other PDF: `issued: false` and nothing else. Not a ' +
      'PDF: 400. Rate-limited per client.',
    tags: ['Verification'],
    auth: 'none',
    rateLimit: 'verify',
    fileBody: {
      contentType: 'application/pdf',
      limitBytes: VERIFY_MAX_BYTES,
      description: 'The PDF, as it was received',
    },
    responses: {
      200: { description: 'Whether the service issued it', schema: issuedSchema },
      400: { description: '`The body is not a PDF`', schema: failBodySchema },
      413: { description: '`Request body exceeds 26214400 bytes`', schema: failBodySchema },
      415: { description: '`Content-Type must be application/pdf`', schema: failBodySchema },
    },
    handler: async (ctx, { body }) => {
      if (!body.head.subarray(0, 1024).includes('%PDF-')) throw malformed('The body is not a PDF');
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { response: 'Pass', ...(await issuedDocument(sequelize, body.sha256)) };
    },
  });
  site.add({
    method: 'get',
    path: '/verify',
    operationId: 'verifyPage',
    dependencyFree: true,
    summary: 'A public page: drop a notarized PDF and read whether the service issued it',
    tags: ['Verification'],
    auth: 'none',
    responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
    handler: async (ctx) => {
      ctx.type = 'html';
      ctx.body = verifyPage();
    },
  });
}
