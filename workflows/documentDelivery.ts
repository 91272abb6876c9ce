import type { ActivityFailure } from '@temporalio/workflow';
import type { DeliveryMode } from '../core/session/messages';
import { failureType, finalize, mail } from './sessionActivities';
import type { SessionRun } from './sessionRun';

/**
 * The notarized PDFs (stamped, certified, digitally signed) and the journal (a test-mode session is no
 * notarial act: it has none). Documents that cannot be notarized leave the session `failed` with the
 * reasons, reported as an event, until an operator retries them (after fixing what was wrong).
 */
export async function finalizeDocuments(
  run: SessionRun,
  sessionId: string,
  testMode: boolean,
): Promise<void> {
  for (;;) {
    const failures: Array<{ documentId: string; reason: string }> = [];
    for (const documentId of await run.db.listDocumentsToFinalize({ sessionId })) {
      try {
        await finalize.finalizeDocument({ sessionId, documentId });
      } catch (err) {
        if (failureType(err) !== 'DocumentNotFinalized') throw err;
        failures.push({ documentId, reason: (err as ActivityFailure).cause!.message });
      }
    }
    if (!failures.length) break;
    await run.db.recordFinalizationFailures({ failures });
    await run.setDocuments('failed');
    await run.events.publish('documents_failed', {
      documents: failures.map((f) => ({ document_id: f.documentId, reason: f.reason })),
    });
    run.requested.retryFinalization = false;
    await run.waitUntil(() => run.requested.retryFinalization);
    await run.setDocuments('pending');
  }
  if (!testMode) await run.db.recordJournal({ sessionId });
}

/** Signed documents go out at once, or when the notary releases them; then each signer is told. */
export async function deliverDocuments(
  run: SessionRun,
  sessionId: string,
  mode: DeliveryMode,
): Promise<void> {
  if (mode === 'notary_manual') {
    await run.setDocuments('held');
    await run.waitUntil(() => run.requested.release);
  }
  await run.setDocuments('released');
  await run.events.publish('documents_released');
  const notices = await mail.sendCompletionNotices({ sessionId });
  run.reportBounces(notices.bounced);
}
