import { activityInfo, ApplicationFailure, cancellationSignal } from '@temporalio/activity';
import { whileHeartbeating } from './heartbeat';
import type { ActivityDependencies } from './dependencies';
import { isUnavailable } from '../src/outages';
import { readBlob, storeBlob } from '../src/documents/blobStore';
import { sha256Hex } from '../src/documents/decode';
import { loadActFacts } from '../src/notarizedPdf/actContext';
import { loadDigitalId, type DigitalId } from '../src/notarizedPdf/digitalId';
import type { PlacedAnnotation, SignerKey } from '../core/session/signing';
import { execute, queryRows, rowExists } from '../src/db/query';
import { inTransaction } from '../src/db/transaction';
import { recordingOf } from '../src/media/recordings';

/** One document's notarized PDF, made on a finalization thread and stored; done once per document. */
async function notarizeAndStore(
  { sequelize, finalization }: Pick<ActivityDependencies, 'sequelize' | 'finalization'>,
  digitalId: () => DigitalId,
  sessionId: string,
  documentId: string,
) {
  const existing = await rowExists(sequelize, 'SELECT 1 FROM signed_documents WHERE document_id = $1', {
    bind: [documentId],
  });
  if (existing) return;
  const documents = await queryRows<{
    name: string;
    sha256: string;
    pdf_blob_id: string;
    annotations: PlacedAnnotation[];
  }>(
    sequelize,
    'SELECT name, sha256, coalesce(pdf_blob_id, blob_id) AS pdf_blob_id, annotations FROM documents WHERE id = $1',
    { bind: [documentId] },
  );
  const document = documents[0];
  const { accountId, ...facts } = await loadActFacts(sequelize, sessionId);
  const original = await readBlob(sequelize, document.pdf_blob_id);
  const marks = await queryRows<{ place: string; participant: SignerKey; png: Buffer }>(
    sequelize,
    `SELECT a.place_id AS place, p.role || '-' || p.index AS participant, a.png
       FROM signature_applications a JOIN participants p ON p.id = a.participant_id WHERE a.document_id = $1`,
    { bind: [documentId] },
  );
  const signed = await finalization.notarize(
    original,
    {
      sessionId,
      ...facts,
      document: { name: document.name, originalSha256: document.sha256, annotations: document.annotations },
      marks,
    },
    digitalId(),
    cancellationSignal(),
  );
  const sha256 = sha256Hex(signed);
  await inTransaction(sequelize, async (transaction) => {
    const blobId = await storeBlob(sequelize, accountId, signed, sha256, transaction);
    await execute(
      sequelize,
      `INSERT INTO signed_documents (document_id, session_id, blob_id, sha256, size_bytes) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (document_id) DO NOTHING`,
      { bind: [documentId, sessionId, blobId, sha256, signed.length], transaction },
    );
    await execute(sequelize, 'UPDATE documents SET finalization_error = NULL WHERE id = $1', {
      bind: [documentId],
      transaction,
    });
  });
}

export function documentActivities(deps: ActivityDependencies) {
  const { sequelize, config } = deps;
  let identity: DigitalId | undefined;
  const digitalId = () => (identity ??= loadDigitalId(config));

  return {
    async listDocumentsToFinalize({ sessionId }: { sessionId: string }): Promise<string[]> {
      const rows = await queryRows<{ id: string }>(
        sequelize,
        `SELECT d.id FROM documents d WHERE d.session_id = $1
            AND NOT EXISTS (SELECT 1 FROM signed_documents s WHERE s.document_id = d.id)
          ORDER BY d.position`,
        { bind: [sessionId] },
      );
      return rows.map((r) => r.id);
    },

    /**
     * Produces one document's notarized, signed PDF. One document per call keeps a session's documents
     * out of memory together; a document already finalized is left as it is. The PDF work runs on a
     * finalization thread, so it heartbeats throughout: an attempt on a worker that died is retried within
     * seconds, not at the end of its timeout, and a cancelled one stops its thread. An outage is retried
     * until it passes; any other failure (a document that outgrows its thread's heap among them),
     * FINALIZE_ATTEMPTS times, then it is `DocumentNotFinalized` (not retried) for the workflow to report.
     */
    async finalizeDocument({
      sessionId,
      documentId,
    }: {
      sessionId: string;
      documentId: string;
    }): Promise<void> {
      try {
        await whileHeartbeating(() => notarizeAndStore(deps, digitalId, sessionId, documentId));
      } catch (err) {
        const { attempt } = activityInfo();
        if (isUnavailable(err) || attempt < config.finalizeAttempts) throw err;
        throw ApplicationFailure.nonRetryable(
          `could not be notarized after ${attempt} attempts: ${(err as Error).message}`,
          'DocumentNotFinalized',
        );
      }
    },

    /** Keeps why each document could not be notarized, for the session's documents and the operator. */
    async recordFinalizationFailures({
      failures,
    }: {
      failures: Array<{ documentId: string; reason: string }>;
    }): Promise<void> {
      for (const { documentId, reason } of failures) {
        await execute(sequelize, 'UPDATE documents SET finalization_error = $2 WHERE id = $1', {
          bind: [documentId, reason],
        });
      }
    },
  };
}

/** The notary's journal: what the law asks a notary to keep of each act. */
/** Where the act's recording is kept and how to know it, as the journal notes it (MISMO's RON standard). */
async function recordingNote(
  { sequelize, objectStore }: Pick<ActivityDependencies, 'sequelize' | 'objectStore'>,
  sessionId: string,
) {
  const recording = await recordingOf(sequelize, sessionId);
  if (!recording) return null;
  return {
    recording_id: recording.id,
    status: recording.status,
    sha256: recording.sha256,
    location: recording.object_key ? objectStore.locationOf(recording.object_key) : null,
    retain_until: recording.retain_until ? new Date(recording.retain_until).toISOString() : null,
    failure_reason: recording.failure_reason,
  };
}

export function journalActivities(deps: Pick<ActivityDependencies, 'sequelize' | 'objectStore'>) {
  const { sequelize } = deps;
  return {
    /** One journal entry per notarial act of the completed session. */
    async recordJournal({ sessionId }: { sessionId: string }): Promise<void> {
      const { accountId: _accountId, sealPng: _sealPng, ...facts } = await loadActFacts(sequelize, sessionId);
      const documents = await queryRows<{
        name: string;
        original_sha256: string;
        notarized_sha256: string | null;
      }>(
        sequelize,
        `SELECT d.name, d.sha256 AS original_sha256, s.sha256 AS notarized_sha256
           FROM documents d LEFT JOIN signed_documents s ON s.document_id = d.id WHERE d.session_id = $1 ORDER BY d.position`,
        { bind: [sessionId] },
      );
      const recording = await recordingNote(deps, sessionId);
      for (const actType of facts.actTypes) {
        await execute(
          sequelize,
          `INSERT INTO journal_entries (session_id, act_type, performed_at, signers, notary, documents, recording)
           VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (session_id, act_type) DO NOTHING`,
          {
            bind: [
              sessionId,
              actType,
              facts.performedAt,
              JSON.stringify(facts.signers.map((s) => ({ name: s.name, identity_method: s.identityMethod }))),
              JSON.stringify({
                name: facts.notary.name,
                commission_number: facts.notary.commissionNumber,
                commission_expires_on: facts.notary.commissionExpiresOn,
                venue_state: facts.venue.state,
                venue_county: facts.venue.county,
              }),
              JSON.stringify(documents),
              JSON.stringify(recording),
            ],
          },
        );
      }
    },
  };
}
