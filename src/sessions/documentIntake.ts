import type { Sequelize, Transaction } from 'sequelize';
import { DocumentError } from '../documents/decode';
import { DocumentWorkTimeout, type DocumentPool, type PreparedUploadBytes } from '../documents/documentPool';
import { ConversionUnavailableError } from '../documents/convert';
import { unavailable } from '../domain/errors';
import { createFailure } from './createRules';
import { storeBlob } from '../documents/blobStore';
import { annotationProblem } from '../documents/annotations';
import { findTemplates } from '../templates/templateService';
import type { Annotation } from '../../core/session/request';
import type { DocumentRequest } from './createRequest';
import { queryRows } from '../db/query';

export interface StoredDocument {
  name: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  blobId: string;
  /** The document as a PDF: the upload itself, or its conversion made at upload. */
  pdfBlobId: string;
  templateId: string | null;
  pageCount: number | null;
  annotations: Annotation[];
  notaryCanEdit: boolean;
}

/** An upload checked and converted, waiting to be stored with the rows that use it. */
export interface PreparedUpload {
  document: PreparedUploadBytes;
  templateId: string | null;
  annotations: Annotation[];
  notaryCanEdit: boolean;
}

/**
 * Checks and converts uploaded documents in the document pool, one at a time, before any transaction
 * opens: no database connection waits on document work. Each base64 string is dropped from the request
 * once decoded.
 */
export async function prepareUploads(
  sequelize: Sequelize,
  accountId: string,
  documents: DocumentRequest[],
  pool: DocumentPool,
): Promise<PreparedUpload[]> {
  const templates = await findTemplates(
    sequelize,
    accountId,
    documents.flatMap((d) => (d.applyTemplate ? [d.applyTemplate] : [])),
  );
  const prepared: PreparedUpload[] = [];
  for (const [i, doc] of documents.entries()) {
    const label = `session_documents[${i}]`;
    const document = await pool.prepare(doc.name, doc.base64Doc!, label);
    doc.base64Doc = undefined;
    let annotations = doc.annotations;
    let templateId: string | null = null;
    if (doc.applyTemplate) {
      const template = templates.get(doc.applyTemplate);
      if (!template)
        throw new DocumentError(`${label}.applyTemplate: template ${doc.applyTemplate} not found`);
      if (template.sha256 !== document.sha256) {
        throw new DocumentError(
          `${label}.applyTemplate: the document does not match the original PDF of template ${template.id}`,
        );
      }
      templateId = template.id;
      annotations = [...template.annotations, ...doc.annotations];
    }
    const problem = annotationProblem(annotations, document.pageCount, `${label}.annotations`);
    if (problem) throw new DocumentError(problem);
    prepared.push({ document, templateId, annotations, notaryCanEdit: doc.notary_can_edit_documents });
  }
  return prepared;
}

/** Stores prepared uploads inside the caller's short transaction: a later failure stores nothing. */
export async function storeUploads(
  sequelize: Sequelize,
  accountId: string,
  uploads: PreparedUpload[],
  transaction: Transaction,
): Promise<StoredDocument[]> {
  const stored: StoredDocument[] = [];
  for (const { document, templateId, annotations, notaryCanEdit } of uploads) {
    const blobId = await storeBlob(sequelize, accountId, document.bytes, document.sha256, transaction);
    stored.push({
      name: document.name,
      contentType: document.contentType,
      sizeBytes: document.bytes.length,
      sha256: document.sha256,
      blobId,
      pdfBlobId: document.pdf
        ? await storeBlob(sequelize, accountId, document.pdf, document.pdfSha256!, transaction)
        : blobId,
      templateId,
      pageCount: document.pageCount,
      annotations,
      notaryCanEdit,
    });
  }
  return stored;
}

/** Documents made from `document_templates`: they share the template's stored bytes. */
export async function documentsFromTemplates(
  sequelize: Sequelize,
  accountId: string,
  templateIds: string[],
  transaction: Transaction,
): Promise<StoredDocument[]> {
  const templates = await findTemplates(sequelize, accountId, templateIds, transaction);
  return templateIds.map((id, i) => {
    const template = templates.get(id);
    if (!template) throw new DocumentError(`document_templates[${i}]: template ${id} not found`);
    return {
      name: template.name,
      contentType: 'application/pdf',
      sizeBytes: template.size_bytes,
      sha256: template.sha256,
      blobId: template.blob_id,
      pdfBlobId: template.blob_id,
      templateId: template.id,
      pageCount: template.page_count,
      annotations: template.annotations,
      notaryCanEdit: false,
    };
  });
}

/** Documents as the JSON records `DOCUMENTS_FROM_JSON` inserts, in their positions from `firstPosition`. */
export function documentRecords(
  documents: StoredDocument[],
  firstPosition: number,
  notaryCanEditAll: boolean,
) {
  return documents.map((doc, i) => ({
    position: firstPosition + i,
    name: doc.name,
    content_type: doc.contentType,
    size_bytes: doc.sizeBytes,
    sha256: doc.sha256,
    blob_id: doc.blobId,
    template_id: doc.templateId,
    page_count: doc.pageCount,
    annotations: doc.annotations,
    notary_can_edit: notaryCanEditAll || doc.notaryCanEdit,
    pdf_blob_id: doc.pdfBlobId,
  }));
}

/** An INSERT of a session's documents from the JSON array of `documentRecords` bound as `records`. */
export const DOCUMENTS_FROM_JSON = (session: string, records: string) => `
  INSERT INTO documents (session_id, position, name, content_type, size_bytes, sha256, blob_id, template_id,
                         page_count, annotations, notary_can_edit, pdf_blob_id)
  SELECT ${session}, d.position, d.name, d.content_type, d.size_bytes, d.sha256, d.blob_id, d.template_id,
         d.page_count, d.annotations, d.notary_can_edit, d.pdf_blob_id
    FROM jsonb_to_recordset(${records}) AS d(position integer, name text, content_type text, size_bytes integer,
         sha256 text, blob_id uuid, template_id uuid, page_count integer, annotations jsonb, notary_can_edit boolean,
         pdf_blob_id uuid)`;

/** Adds documents to a session in one statement; answers their ids in their order. */
export async function insertDocuments(
  sequelize: Sequelize,
  sessionId: string,
  documents: StoredDocument[],
  firstPosition: number,
  notaryCanEditAll: boolean,
  transaction: Transaction,
): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    sequelize,
    `WITH inserted AS (${DOCUMENTS_FROM_JSON('$1', '$2')} RETURNING id, position)
     SELECT id FROM inserted ORDER BY position`,
    {
      bind: [sessionId, JSON.stringify(documentRecords(documents, firstPosition, notaryCanEditAll))],
      transaction,
    },
  );
  return rows.map((row) => row.id);
}

/**
 * Runs document intake with its failures in the create body's terms: a document that cannot be used is
 * the caller's 403, an unavailable converter is a retryable `unavailable`.
 */
export async function refusingBadDocuments<T>(intake: () => Promise<T>): Promise<T> {
  try {
    return await intake();
  } catch (err) {
    if (err instanceof ConversionUnavailableError)
      throw unavailable(`Document conversion is unavailable: ${err.message}`);
    if (err instanceof DocumentWorkTimeout)
      throw unavailable(`Document processing timed out (${err.message}); retry`);
    if (err instanceof DocumentError) throw createFailure(err.message);
    throw err;
  }
}
