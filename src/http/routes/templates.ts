import Joi from 'joi';
import type { Sequelize } from 'sequelize';
import { annotationSchema } from '../../sessions/createRequest';
import { paginationSchema } from '../../sessions/schemas';
import {
  createTemplate,
  listTemplates,
  presentTemplate,
  type TemplateInput,
} from '../../templates/templateService';
import { DocumentError } from '../../documents/decode';
import { invalid, unavailable } from '../../domain/errors';
import { DocumentWorkTimeout, type DocumentPool } from '../../documents/documentPool';
import { failBodySchema } from '../openapi/document';
import { base64Doc } from '../../validation/base64Doc';
import { principalOf } from '../context';
import type { ApiRoutes } from '../routeTable';

const templateSchema = Joi.object({
  template_id: Joi.string().guid(),
  name: Joi.string(),
  sha256: Joi.string().hex().length(64),
  size_bytes: Joi.number().integer(),
  page_count: Joi.number().integer(),
  annotations: Joi.array().items(annotationSchema),
  created_at: Joi.string().isoDate(),
}).label('Template');

const createTemplateBody = Joi.object<TemplateInput>({
  name: Joi.string().trim().min(1).max(255).required().description('File name ending in .pdf'),
  base64Doc: base64Doc().required().description('The original PDF, strict base64, at most 10 MB decoded'),
  annotations: Joi.array().items(annotationSchema).max(500).default([]),
}).label('CreateTemplateRequest');

export function registerTemplateRoutes(api: ApiRoutes, sequelize: Sequelize, documents: DocumentPool): void {
  api.add<TemplateInput>({
    method: 'post',
    path: '/templates',
    operationId: 'createTemplate',
    summary: 'Upload a template PDF with pre-placed fields',
    description:
      'Templates are used by `document_templates` (a document made from the template) and by a document’s ' +
      '`applyTemplate` (an uploaded PDF that must have the same bytes as the template’s original).',
    tags: ['Templates'],
    auth: 'api',
    body: createTemplateBody,
    acceptsDocuments: true,
    onInvalid: (error) => invalid(error.details[0]?.message ?? 'Invalid template'),
    responses: {
      201: {
        description: 'Created',
        schema: Joi.object({ response: Joi.string().valid('Pass'), template: templateSchema }),
      },
      422: { description: 'Not a valid PDF template', schema: failBodySchema },
    },
    handler: async (ctx, { body }) => {
      try {
        const row = await createTemplate(sequelize, documents, principalOf(ctx).accountId, body);
        ctx.status = 201;
        ctx.body = { response: 'Pass', template: presentTemplate(row) };
      } catch (err) {
        if (err instanceof DocumentError) throw invalid(err.message.replace(/^template\./, ''));
        if (err instanceof DocumentWorkTimeout)
          throw unavailable(`Document processing timed out (${err.message}); retry`);
        throw err;
      }
    },
  });

  api.add<unknown, { page: number; limit: number }>({
    method: 'get',
    path: '/templates',
    operationId: 'listTemplates',
    summary: "List the account's templates, newest first",
    tags: ['Templates'],
    auth: 'api',
    query: Joi.object({
      page: Joi.number().integer().min(1).default(1),
      limit: Joi.number().integer().min(1).max(100).default(25),
    }),
    responses: {
      200: {
        description: 'A page of templates',
        schema: Joi.object({ data: Joi.array().items(templateSchema), pagination: paginationSchema }),
      },
    },
    handler: async (ctx, { query }) => {
      const { rows, pagination } = await listTemplates(sequelize, principalOf(ctx).accountId, query);
      ctx.body = { data: rows.map(presentTemplate), pagination };
    },
  });
}
