import type { Sequelize, Transaction } from 'sequelize';
import { inTransaction } from '../db/transaction';
import { DocumentError } from '../documents/decode';
import type { DocumentPool } from '../documents/documentPool';
import { storeBlob } from '../documents/blobStore';
import type { Annotation } from '../../core/session/request';
import type { Base64Upload } from '../documents/base64Upload';
import { annotationProblem } from '../documents/annotations';
import { queryRows } from '../db/query';
import { pageOf, type PageRequest } from '../db/pagination';

export interface TemplateRow {
  id: string;
  name: string;
  blob_id: string;
  sha256: string;
  size_bytes: number;
  page_count: number;
  annotations: Annotation[];
  created_at: Date;
}

export interface TemplateInput {
  name: string;
  base64Doc: Base64Upload;
  annotations: Annotation[];
}

export function presentTemplate(row: TemplateRow) {
  return {
    template_id: row.id,
    name: row.name,
    sha256: row.sha256,
    size_bytes: row.size_bytes,
    page_count: row.page_count,
    annotations: row.annotations,
    created_at: row.created_at.toISOString(),
  };
}

/** A template is an original PDF with pre-placed fields; documents that match it byte for byte get its fields. */
export async function createTemplate(
  sequelize: Sequelize,
  documents: DocumentPool,
  accountId: string,
  input: TemplateInput,
): Promise<TemplateRow> {
  if (!/\.pdf$/i.test(input.name))
    throw new DocumentError('name must end in .pdf: templates are PDF documents');
  const decoded = await documents.prepare(input.name, input.base64Doc, 'template');
  const problem = annotationProblem(input.annotations, decoded.pageCount, 'annotations');
  if (problem) throw new DocumentError(problem);
  return inTransaction(sequelize, async (transaction) => {
    const blobId = await storeBlob(sequelize, accountId, decoded.bytes, decoded.sha256, transaction);
    const rows = await queryRows<TemplateRow>(
      sequelize,
      `INSERT INTO templates (account_id, name, blob_id, sha256, size_bytes, page_count, annotations)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
      {
        bind: [
          accountId,
          input.name,
          blobId,
          decoded.sha256,
          decoded.bytes.length,
          decoded.pageCount,
          JSON.stringify(input.annotations),
        ],
        transaction,
      },
    );
    return rows[0];
  });
}

export function listTemplates(sequelize: Sequelize, accountId: string, request: PageRequest) {
  return pageOf<TemplateRow>(
    sequelize,
    {
      columns: '*',
      fromWhere: 'FROM templates WHERE account_id = $1',
      orderBy: 'created_at DESC, id',
      bind: [accountId],
    },
    request,
  );
}

/** The named templates of one account; ids of other accounts are simply absent. */
export async function findTemplates(
  sequelize: Sequelize,
  accountId: string,
  ids: string[],
  transaction?: Transaction,
): Promise<Map<string, TemplateRow>> {
  if (!ids.length) return new Map();
  const rows = await queryRows<TemplateRow>(
    sequelize,
    'SELECT * FROM templates WHERE account_id = $1 AND id = ANY($2::uuid[])',
    {
      bind: [accountId, ids],
      transaction,
    },
  );
  return new Map(rows.map((row) => [row.id, row]));
}
