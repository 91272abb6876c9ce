import { NOT_THE_SESSIONS_NOTARY, sessionOfItsNotary } from './sessionOfItsNotary';
import Joi from 'joi';
import { SIGNED_DOWNLOAD } from './signedLinks';
import type { SessionService } from '../../sessions/sessionService';
import type { SessionRow } from '../../../core/session/rows';
import type { SignedDocumentService } from '../../documents/signedDocumentService';
import { sessionIdParams } from '../../sessions/schemas';
import { failBodySchema } from '../openapi/document';
import { principalOf } from '../context';
import type { ApiRoutes, RouteDefinition } from '../routeTable';

const notFound = { description: '`Session not found`', schema: failBodySchema };

/** RFC 6266: an ASCII fallback plus the UTF-8 name. */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

const signedDocumentsSchema = (statuses: string[]) =>
  Joi.object({
    response: Joi.string().valid('Pass'),
    bn_session_id: Joi.string().guid(),
    notarization_id: Joi.string().allow(''),
    documents_status: Joi.string().valid(...statuses),
    documents: Joi.array().items(
      Joi.object({
        document_id: Joi.string().guid(),
        name: Joi.string(),
        content_type: Joi.string().valid('application/pdf'),
        size_bytes: Joi.number().integer(),
        sha256: Joi.string().hex().length(64),
        download_url: Joi.string().uri(),
        expires_at: Joi.string().isoDate(),
      }).label('SignedDocument'),
    ),
  });

const signedDocumentsBody = (session: SessionRow, documents: unknown[]) => ({
  response: 'Pass',
  bn_session_id: session.id,
  notarization_id: session.notarization_id ?? '',
  documents_status: session.documents_status,
  documents,
});

/** The signed documents of a completed session, with short-lived download URLs */
function getSignedDocumentsRoute(
  sessions: SessionService,
  signed: SignedDocumentService,
): RouteDefinition<unknown, unknown, { id: string }> {
  return {
    method: 'get',
    path: '/sessions/{id}/documents',
    operationId: 'getSignedDocuments',
    summary: 'The signed documents of a completed session, with short-lived download URLs',
    description:
      'Spec 4.2. 409 before completion and while the notary holds the documents (notary_manual). Each ' +
      '`download_url` is absolute, HMAC-signed, valid 15 minutes by default (DOWNLOAD_URL_TTL_SECONDS) and needs no ' +
      'key; it serves the notarized PDF: seal, signatures, certificate page, and a PAdES digital signature.',
    tags: ['Signed documents'],
    auth: 'api',
    params: sessionIdParams,
    responses: {
      200: {
        description: 'Signed documents',
        schema: signedDocumentsSchema(['released']).label('SignedDocuments'),
      },
      404: notFound,
      409: {
        description: 'Not completed yet, held until released, or failed (a document could not be notarized)',
        schema: failBodySchema,
      },
    },
    handler: async (ctx, { params }) => {
      const session = await sessions.findRow(principalOf(ctx).accountId, params.id);
      ctx.body = signedDocumentsBody(session, await signed.list(session));
    },
  };
}

/** The notarized documents, for the session's notary to review before releasing them */
function reviewNotarizedDocumentsRoute(
  sessions: SessionService,
  signed: SignedDocumentService,
): RouteDefinition<unknown, unknown, { id: string }> {
  return {
    method: 'get',
    path: '/sessions/{id}/notarized_documents',
    operationId: 'reviewNotarizedDocuments',
    summary: 'The notarized documents, for the session’s notary to review before releasing them',
    description:
      'The answer of GET /sessions/{id}/documents, also while the documents are `held` (notary_manual): the ' +
      'notary console previews what a release sends. The account’s key, an admin, or the session’s notary.',
    tags: ['Signed documents'],
    auth: 'session_actor',
    params: sessionIdParams,
    responses: {
      200: {
        description: 'The notarized documents, held or released',
        schema: signedDocumentsSchema(['held', 'released']).label('NotarizedDocumentsReview'),
      },
      403: NOT_THE_SESSIONS_NOTARY,
      404: notFound,
      409: { description: 'Not completed yet, being prepared, or failed', schema: failBodySchema },
    },
    handler: async (ctx, { params }) => {
      const session = await sessionOfItsNotary(
        ctx,
        sessions,
        params.id,
        'Only the session’s notary or an admin reviews its documents',
      );
      ctx.body = signedDocumentsBody(session, await signed.list(session, { forNotary: true }));
    },
  };
}

/** Download a signed PDF through its signed, expiring URL (no key) */
function downloadSignedDocumentRoute(
  sessions: SessionService,
  signed: SignedDocumentService,
): RouteDefinition<unknown, { expires: string; signature: string }, { id: string }> {
  return {
    method: 'get',
    path: '/signed_documents/{id}/download',
    operationId: 'downloadSignedDocument',
    summary: 'Download a signed PDF through its signed, expiring URL (no key)',
    tags: ['Signed documents'],
    ...SIGNED_DOWNLOAD,
    responses: {
      200: { description: 'The PDF', contentType: 'application/pdf' },
      403: { description: 'Expired, altered or incomplete link', schema: failBodySchema },
    },
    handler: async (ctx, { params, query }) => {
      const { bytes, fileName } = await signed.download(params.id, query, {
        address: ctx.ip,
        userAgent: ctx.get('user-agent'),
      });
      ctx.type = 'application/pdf';
      ctx.set('Content-Disposition', contentDisposition(fileName));
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = bytes;
    },
  };
}

/** Notary journal entries of the session: one per notarial act */
function getJournalRoute(
  sessions: SessionService,
  signed: SignedDocumentService,
): RouteDefinition<unknown, unknown, { id: string }> {
  return {
    method: 'get',
    path: '/sessions/{id}/journal',
    operationId: 'getJournal',
    summary: 'Notary journal entries of the session: one per notarial act',
    tags: ['Signed documents'],
    auth: 'api',
    params: sessionIdParams,
    responses: {
      200: {
        description: 'Journal entries (empty until the session is completed)',
        schema: Joi.object({
          response: Joi.string().valid('Pass'),
          bn_session_id: Joi.string().guid(),
          entries: Joi.array().items(
            Joi.object({
              act_type: Joi.string(),
              performed_at: Joi.string().isoDate(),
              signers: Joi.array().items(Joi.object({ name: Joi.string(), identity_method: Joi.string() })),
              notary: Joi.object({
                name: Joi.string(),
                commission_number: Joi.string(),
                commission_expires_on: Joi.string(),
                venue_state: Joi.string(),
                venue_county: Joi.string().allow(null),
              }),
              documents: Joi.array().items(
                Joi.object({
                  name: Joi.string(),
                  original_sha256: Joi.string(),
                  notarized_sha256: Joi.string().allow(null),
                }),
              ),
              recording: Joi.object({
                recording_id: Joi.string().guid(),
                status: Joi.string().valid('recording', 'processing', 'available', 'failed'),
                sha256: Joi.string().allow(null),
                location: Joi.string()
                  .allow(null)
                  .description(
                    'Where the recording is kept: `s3://bucket/key`, or a path on the service’s disk',
                  ),
                retain_until: Joi.string().isoDate().allow(null),
                failure_reason: Joi.string().allow(null),
              })
                .allow(null)
                .description('The audio-video recording of the act and where it is kept'),
            }).label('JournalEntry'),
          ),
        }),
      },
      404: notFound,
    },
    handler: async (ctx, { params }) => {
      const session = await sessions.findRow(principalOf(ctx).accountId, params.id);
      ctx.body = {
        response: 'Pass',
        bn_session_id: session.id,
        entries: await signed.journal(session.id),
      };
    },
  };
}

function getAuditTrailRoute(
  sessions: SessionService,
  signed: SignedDocumentService,
): RouteDefinition<unknown, unknown, { id: string }> {
  return {
    method: 'get',
    path: '/sessions/{id}/audit',
    operationId: 'getAuditTrail',
    summary: "The session's audit trail: every event in a hash chain, and whether the chain is intact",
    tags: ['Signed documents'],
    auth: 'api',
    params: sessionIdParams,
    responses: {
      200: {
        description: 'Audit records in order',
        schema: Joi.object({
          response: Joi.string().valid('Pass'),
          bn_session_id: Joi.string().guid(),
          intact: Joi.boolean(),
          records: Joi.array().items(
            Joi.object({
              seq: Joi.number().integer(),
              event_id: Joi.string(),
              event: Joi.string(),
              created_at: Joi.string().isoDate(),
              prev_hash: Joi.string().hex().length(64),
              hash: Joi.string().hex().length(64),
              payload: Joi.object().unknown(true),
            }).label('AuditRecord'),
          ),
        }),
      },
      404: notFound,
    },
    handler: async (ctx, { params }) => {
      const session = await sessions.findRow(principalOf(ctx).accountId, params.id);
      ctx.body = {
        response: 'Pass',
        bn_session_id: session.id,
        ...(await signed.audit(session.id)),
      };
    },
  };
}

export function registerSignedDocumentRoutes(
  api: ApiRoutes,
  sessions: SessionService,
  signed: SignedDocumentService,
): void {
  api.add(getSignedDocumentsRoute(sessions, signed));

  api.add(downloadSignedDocumentRoute(sessions, signed));

  api.add(reviewNotarizedDocumentsRoute(sessions, signed));

  api.add(getJournalRoute(sessions, signed));

  api.add(getAuditTrailRoute(sessions, signed));
}
