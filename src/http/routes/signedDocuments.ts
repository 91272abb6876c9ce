import Joi from 'joi';
import type { Sequelize } from 'sequelize';
import type { SessionService } from '../../sessions/sessionService';
import type { DownloadUrls } from '../../documents/downloadUrls';
import { readBlob } from '../../documents/blobStore';
import { readAuditTrail, verifyChain } from '../../audit/auditChain';
import { sessionIdParams } from '../../sessions/schemas';
import { failBodySchema } from '../../openapi/document';
import { HttpError } from '../errors';
import { principalOf } from '../context';
import type { ApiRoutes } from '../routes';

const notFound = { description: '`Session not found`', schema: failBodySchema };

function pdfName(name: string): string {
  return name.replace(/\.[^.]+$/, '') + '.pdf';
}

/** RFC 6266: an ASCII fallback plus the UTF-8 name. */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function registerSignedDocumentRoutes(
  api: ApiRoutes,
  sessions: SessionService,
  sequelize: Sequelize,
  urls: DownloadUrls,
): void {
  api.add<unknown, unknown, { id: string }>({
    method: 'get',
    path: '/api/integrationsv2/sessions/{id}/documents',
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
        schema: Joi.object({
          response: Joi.string().valid('Pass'),
          bn_session_id: Joi.string().guid(),
          notarization_id: Joi.string().allow(''),
          documents_status: Joi.string().valid('released'),
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
        }).label('SignedDocuments'),
      },
      404: notFound,
      409: { description: 'Not completed yet, or held until released', schema: failBodySchema },
    },
    handler: async (ctx, { params }) => {
      const session = await sessions.findRow(principalOf(ctx).accountId, params.id);
      if (session.status !== 'completed') {
        throw new HttpError(
          409,
          `Signed documents are available once the session is completed; it is ${session.status}`,
        );
      }
      if (session.documents_status === 'held')
        throw new HttpError(409, 'Signed documents are held until the notary releases them');
      if (session.documents_status !== 'released')
        throw new HttpError(409, 'Signed documents are being prepared');
      const [rows] = (await sequelize.query(
        `SELECT d.id, d.name, s.id AS signed_id, s.size_bytes, s.sha256 FROM documents d
           JOIN signed_documents s ON s.document_id = d.id WHERE d.session_id = $1 ORDER BY d.position`,
        { bind: [session.id] },
      )) as [
        Array<{ id: string; name: string; signed_id: string; size_bytes: number; sha256: string }>,
        unknown,
      ];
      ctx.body = {
        response: 'Pass',
        bn_session_id: session.id,
        notarization_id: session.notarization_id ?? '',
        documents_status: session.documents_status,
        documents: rows.map((row) => {
          const { url, expiresAt } = urls.create(row.signed_id);
          return {
            document_id: row.id,
            name: pdfName(row.name),
            content_type: 'application/pdf',
            size_bytes: row.size_bytes,
            sha256: row.sha256,
            download_url: url,
            expires_at: expiresAt.toISOString(),
          };
        }),
      };
    },
  });

  api.add<unknown, { expires: string; signature: string }, { id: string }>({
    method: 'get',
    path: '/api/integrationsv2/signed_documents/{id}/download',
    operationId: 'downloadSignedDocument',
    summary: 'Download a signed PDF through its signed, expiring URL (no key)',
    tags: ['Signed documents'],
    auth: 'none',
    params: Joi.object({ id: Joi.string().max(100) }),
    query: Joi.object({
      expires: Joi.string().max(20).required(),
      signature: Joi.string().max(100).required(),
    }),
    onInvalid: () => new HttpError(403, 'This download link is invalid or has expired'),
    responses: {
      200: { description: 'The PDF', contentType: 'application/pdf' },
      403: { description: 'Expired, altered or incomplete link', schema: failBodySchema },
    },
    handler: async (ctx, { params, query }) => {
      if (!urls.isValid(params.id, query.expires, query.signature)) {
        throw new HttpError(403, 'This download link is invalid or has expired');
      }
      const [rows] = (await sequelize.query(
        'SELECT s.id, s.blob_id, d.name FROM signed_documents s JOIN documents d ON d.id = s.document_id WHERE s.id = $1',
        { bind: [params.id] },
      )) as [Array<{ id: string; blob_id: string; name: string }>, unknown];
      if (!rows.length) throw new HttpError(404, 'Document not found');
      const bytes = await readBlob(sequelize, rows[0].blob_id);
      await sequelize.query(
        'INSERT INTO document_downloads (signed_document_id, remote_address, user_agent) VALUES ($1, $2, $3)',
        {
          bind: [rows[0].id, ctx.ip, ctx.get('user-agent').slice(0, 500) || null],
        },
      );
      ctx.type = 'application/pdf';
      ctx.set('Content-Disposition', contentDisposition(pdfName(rows[0].name)));
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = bytes;
    },
  });

  api.add<unknown, unknown, { id: string }>({
    method: 'get',
    path: '/api/integrationsv2/sessions/{id}/journal',
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
            }).label('JournalEntry'),
          ),
        }),
      },
      404: notFound,
    },
    handler: async (ctx, { params }) => {
      const session = await sessions.findRow(principalOf(ctx).accountId, params.id);
      const [rows] = (await sequelize.query(
        'SELECT act_type, performed_at, signers, notary, documents FROM journal_entries WHERE session_id = $1 ORDER BY act_type',
        { bind: [session.id] },
      )) as [Array<{ performed_at: Date } & Record<string, unknown>>, unknown];
      ctx.body = {
        response: 'Pass',
        bn_session_id: session.id,
        entries: rows.map((row) => ({ ...row, performed_at: new Date(row.performed_at).toISOString() })),
      };
    },
  });

  api.add<unknown, unknown, { id: string }>({
    method: 'get',
    path: '/api/integrationsv2/sessions/{id}/audit',
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
      const records = await readAuditTrail(sequelize, session.id);
      ctx.body = {
        response: 'Pass',
        bn_session_id: session.id,
        intact: verifyChain(records).intact,
        records: records.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() })),
      };
    },
  });
}
