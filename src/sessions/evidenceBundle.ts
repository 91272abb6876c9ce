import crypto from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { Zip, ZipPassThrough } from 'fflate';
import type { Sequelize } from 'sequelize';
import type { SessionRow } from '../../core/session/rows';
import { conflict } from '../domain/errors';
import { queryRows } from '../db/query';
import { readBlob } from '../documents/blobStore';
import { pdfName, type SignedDocumentService } from '../documents/signedDocumentService';
import type { RecordingViews } from '../media/recordingViews';

export const EVIDENCE_NOT_FINAL =
  'Evidence is available once the session is completed and its documents are final';
/** How an auditor recomputes each record's hash (src/audit/auditChain.ts). */
const CHAIN_ALGORITHM =
  'sha256 over prev_hash, seq, event_id and the payload as JSON with sorted keys, joined by newlines; the first prev_hash is 64 zeros';

interface ManifestEntry {
  path: string;
  sha256: string;
  size_bytes: number;
}

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

/**
 * The act's whole evidence as one ZIP (contract §8): the notarized documents byte for byte, the audit
 * trail with its verification, how each person was identified, and for a live act its recording's
 * metadata and journal; `manifest.json` last, with every file's sha256. Written file by file to the
 * response: never more than one document in memory.
 */
export class EvidenceBundles {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly signed: SignedDocumentService,
    private readonly recordings: RecordingViews,
  ) {}

  open(session: SessionRow): Readable {
    if (session.status !== 'completed' || !['held', 'released'].includes(session.documents_status ?? ''))
      throw conflict(EVIDENCE_NOT_FINAL);
    const out = new PassThrough();
    const zip = new Zip((err, chunk, final) => {
      if (err) return out.destroy(err);
      out.write(chunk);
      if (final) out.end();
    });
    this.write(session, zip).catch((err: unknown) => out.destroy(err as Error));
    return out;
  }

  private async write(session: SessionRow, zip: Zip): Promise<void> {
    const files: ManifestEntry[] = [];
    const add = (path: string, bytes: Buffer) => {
      files.push({
        path,
        sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
        size_bytes: bytes.length,
      });
      const entry = new ZipPassThrough(path);
      zip.add(entry);
      entry.push(bytes, true);
    };
    const documents = await queryRows<{ name: string; blob_id: string; position: number }>(
      this.sequelize,
      `SELECT d.name, s.blob_id, d.position FROM documents d JOIN signed_documents s ON s.document_id = d.id
        WHERE d.session_id = $1 ORDER BY d.position`,
      { bind: [session.id] },
    );
    const names = new Set<string>();
    for (const document of documents) {
      let name = pdfName(document.name).replace(/[\\/]/g, '_');
      if (names.has(name)) name = `${document.position + 1}-${name}`;
      names.add(name);
      await add(`documents/${name}`, await readBlob(this.sequelize, document.blob_id));
    }
    const audit = await this.signed.audit(session.id);
    await add(
      'audit-trail.json',
      json({ records: audit.records, verification: { algorithm: CHAIN_ALGORITHM, intact: audit.intact } }),
    );
    await add('identity.json', json({ participants: await this.identities(session.id) }));
    if (!session.test_mode) {
      const {
        download_url: _url,
        expires_at: _expires,
        ...recording
      } = await this.recordings.ofSession(session.id);
      const renditions = recording.renditions.map(
        ({ download_url: _u, expires_at: _e, ...rendition }) => rendition,
      );
      await add('recording.json', json({ ...recording, renditions }));
      await add('journal.json', json({ entries: await this.signed.journal(session.id) }));
    }
    await add(
      'manifest.json',
      json({
        bn_session_id: session.id,
        notarization_id: session.notarization_id,
        test: session.test_mode,
        generated_at: new Date().toISOString(),
        files,
      }),
    );
    zip.end();
  }

  /** Per participant, every identity check: method, outcome, attempt, provider, time; no answers, no images. */
  private identities(sessionId: string) {
    return queryRows(
      this.sequelize,
      `SELECT p.role, p.index, coalesce(nullif(concat_ws(' ', p.first_name, p.last_name), ''), p.email) AS name,
              coalesce((SELECT json_agg(json_build_object(
                         'method', c.method, 'outcome', c.outcome, 'attempt', c.attempt, 'provider', c.provider,
                         'reasons', c.reasons, 'correct', c.correct, 'total', c.total, 'allowed_by', c.allowed_by,
                         'started_at', c.started_at, 'completed_at', c.completed_at) ORDER BY c.started_at)
                          FROM identity_checks c WHERE c.participant_id = p.id), '[]') AS checks
         FROM participants p WHERE p.session_id = $1 ORDER BY p.role, p.index`,
      { bind: [sessionId] },
    );
  }
}
