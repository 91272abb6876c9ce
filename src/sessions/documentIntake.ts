import type { Sequelize, Transaction } from 'sequelize';
import { DocumentError } from '../documents/decode';
import { DocumentWorkTimeout, type DocumentPool } from '../documents/documentPool';
import { ConversionUnavailableError } from '../documents/convert';
import { unavailable } from '../domain/errors';
import { createFailure } from './createRules';
import { storeBlob } from '../documents/blobStore';
import { annotationProblem } from '../documents/annotations';
import { findTemplates } from '../templates/templateService';
import type { Annotation, DocumentInput } from './createRequest';
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

/**
 * Checks and stores uploaded documents one at a time, dropping each base64 string from the request
 * once decoded, so a request with several 10 MB documents never holds them all decoded at once.
 * Everything happens inside the caller's transaction: a later failure stores nothing.
 */
export async function intakeUploads(
  sequelize: Sequelize,
  accountId: string,
  documents: DocumentInput[],
  transaction: Transaction,
  pool: DocumentPool,
): Promise<StoredDocument[]> {
  const templates = await findTemplates(
    sequelize,
    accountId,
    documents.flatMap((d) => (d.applyTemplate ? [d.applyTemplate] : [])),
    transaction,
  );
  const stored: StoredDocument[] = [];
  for (const [i, doc] of documents.entries()) {
    const label = `session_documents[${i}]`;
    const decoded = await pool.prepare({ name: doc.name, base64: doc.base64Doc!, label });
    doc.base64Doc = undefined;
    let annotations = doc.annotations;
    let templateId: string | null = null;
    if (doc.applyTemplate) {
      const template = templates.get(doc.applyTemplate);
      if (!template)
        throw new DocumentError(`${label}.applyTemplate: template ${doc.applyTemplate} not found`);
      if (template.sha256 !== decoded.sha256) {
        throw new DocumentError(
          `${label}.applyTemplate: the document does not match the original PDF of template ${template.id}`,
        );
      }
      templateId = template.id;
      annotations = [...template.annotations, ...doc.annotations];
    }
    const problem = annotationProblem(annotations, decoded.pageCount, `${label}.annotations`);
    if (problem) throw new DocumentError(problem);
    const bytes = Buffer.from(decoded.bytes);
    const blobId = await storeBlob(sequelize, accountId, bytes, decoded.sha256, transaction);
    stored.push({
      name: decoded.name,
      contentType: decoded.contentType,
      sizeBytes: bytes.length,
      sha256: decoded.sha256,
      blobId,
      pdfBlobId: decoded.pdf
        ? await storeBlob(sequelize, accountId, Buffer.from(decoded.pdf), decoded.pdfSha256!, transaction)
        : blobId,
      templateId,
      pageCount: decoded.pageCount,
      annotations,
      notaryCanEdit: doc.notary_can_edit_documents,
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

export async function insertDocuments(
  sequelize: Sequelize,
  sessionId: string,
  documents: StoredDocument[],
  firstPosition: number,
  notaryCanEditAll: boolean,
  transaction: Transaction,
): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, doc] of documents.entries()) {
    const rows = await queryRows<{ id: string }>(
      sequelize,
      `INSERT INTO documents (session_id, position, name, content_type, size_bytes, sha256, blob_id, template_id,
                              page_count, annotations, notary_can_edit, pdf_blob_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
      {
        bind: [
          sessionId,
          firstPosition + i,
          doc.name,
          doc.contentType,
          doc.sizeBytes,
          doc.sha256,
          doc.blobId,
          doc.templateId,
          doc.pageCount,
          JSON.stringify(doc.annotations),
          notaryCanEditAll || doc.notaryCanEdit,
          doc.pdfBlobId,
        ],
        transaction,
      },
    );
    ids.push(rows[0].id);
  }
  return ids;
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
