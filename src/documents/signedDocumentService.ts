import type { Sequelize } from 'sequelize';
import { refused, notFound, conflict } from '../domain/errors';
import type { SessionRow } from '../../core/session/rows';
import { readAuditTrail, verifyChain } from '../audit/auditChain';
import { readBlob } from './blobStore';
import type { DownloadUrls } from './downloadUrls';
import { execute, queryRows } from '../db/query';

/** The name a notarized document is served under: the upload's name as a PDF. */
export function pdfName(name: string): string {
  return name.replace(/\.[^.]+$/, '') + '.pdf';
}

/** The notarized output of sessions: signed PDFs, their download links, the journal and the audit trail. */
export class SignedDocumentService {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly urls: DownloadUrls,
  ) {}

  /** Spec 4.2: only once the session is completed and its documents are released. */
  /** `forNotary`: the session's notary reviews documents they hold before releasing them. */
  async list(session: SessionRow, { forNotary = false } = {}) {
    if (session.status !== 'completed') {
      throw conflict(`Signed documents are available once the session is completed; it is ${session.status}`);
    }
    if (session.documents_status === 'held' && !forNotary) {
      throw conflict('Signed documents are held until the notary releases them');
    }
    if (session.documents_status === 'failed') {
      throw conflict(
        'Signed documents could not be prepared; the session shows why, and the operator has been told',
      );
    }
    if (session.documents_status === 'pending') throw conflict('Signed documents are being prepared');
    const rows = await queryRows<{
      id: string;
      name: string;
      signed_id: string;
      size_bytes: number;
      sha256: string;
    }>(
      this.sequelize,
      `SELECT d.id, d.name, s.id AS signed_id, s.size_bytes, s.sha256 FROM documents d
         JOIN signed_documents s ON s.document_id = d.id WHERE d.session_id = $1 ORDER BY d.position`,
      { bind: [session.id] },
    );
    return rows.map((row) => {
      const { url, expiresAt } = this.urls.create(row.signed_id);
      return {
        document_id: row.id,
        name: pdfName(row.name),
        content_type: 'application/pdf',
        size_bytes: row.size_bytes,
        sha256: row.sha256,
        download_url: url,
        expires_at: expiresAt.toISOString(),
      };
    });
  }

  /** The PDF behind a signed download link; every download is recorded. */
  async download(
    signedDocumentId: string,
    link: { expires: string; signature: string },
    client: { address: string; userAgent: string },
  ): Promise<{ bytes: Buffer; fileName: string }> {
    if (!this.urls.isValid(signedDocumentId, link.expires, link.signature)) {
      throw refused('This download link is invalid or has expired');
    }
    const rows = await queryRows<{ id: string; blob_id: string; name: string }>(
      this.sequelize,
      'SELECT s.id, s.blob_id, d.name FROM signed_documents s JOIN documents d ON d.id = s.document_id WHERE s.id = $1',
      { bind: [signedDocumentId] },
    );
    if (!rows.length) throw notFound('Document not found');
    const bytes = await readBlob(this.sequelize, rows[0].blob_id);
    await execute(
      this.sequelize,
      'INSERT INTO document_downloads (signed_document_id, remote_address, user_agent) VALUES ($1, $2, $3)',
      { bind: [rows[0].id, client.address, client.userAgent.slice(0, 500) || null] },
    );
    return { bytes, fileName: pdfName(rows[0].name) };
  }

  async journal(sessionId: string) {
    const rows = await queryRows<{ performed_at: Date } & Record<string, unknown>>(
      this.sequelize,
      'SELECT act_type, performed_at, signers, notary, documents, recording FROM journal_entries WHERE session_id = $1 ORDER BY act_type',
      { bind: [sessionId] },
    );
    return rows.map((row) => ({ ...row, performed_at: new Date(row.performed_at).toISOString() }));
  }

  async audit(sessionId: string) {
    const records = await readAuditTrail(this.sequelize, sessionId);
    return {
      intact: verifyChain(records).intact,
      records: records.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() })),
    };
  }
}
