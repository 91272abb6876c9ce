import fs from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { testEnvironment } from './environment';

export const HISTORIES_DIR = path.join(__dirname, '..', 'replay', 'histories');

/**
 * With RECORD_HISTORIES=1, saves a workflow's event history (its latest run's, or `runId`'s) as a replay fixture. The committed fixtures
 * are replayed against the current workflow code on every run (test/replay), so a change that is not
 * deterministic for workflows already running fails CI. Re-record only for a deliberate, versioned change.
 */
export async function recordHistory(name: string, workflowId: string, runId?: string): Promise<void> {
  if (process.env.RECORD_HISTORIES !== '1') return;
  const history = await testEnvironment()
    .runtime.temporal.client.workflow.getHandle(workflowId, runId)
    .fetchHistory();
  fs.mkdirSync(HISTORIES_DIR, { recursive: true });
  // Protobuf binary: the exact history, independent of the SDK's JSON conversion.
  fs.writeFileSync(
    path.join(HISTORIES_DIR, `${name}.history.bin`),
    temporal.api.history.v1.History.encode(history).finish(),
  );
}
