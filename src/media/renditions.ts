import type { Sequelize } from 'sequelize';
import { execute, queryRows } from '../db/query';
import type { RenditionKind } from '../../core/session/media';

export type RenditionStatus = 'pending' | 'processing' | 'available' | 'failed';

export interface RenditionRow {
  recording_id: string;
  kind: RenditionKind;
  status: RenditionStatus;
  content_type: string | null;
  duration_seconds: string | null;
  size_bytes: string | null;
  sha256: string | null;
  object_key: string | null;
  failure_reason: string | null;
  /** Once `available`, when it became so. */
  updated_at: Date;
}

export interface MadeRendition {
  objectKey: string;
  contentType: string;
  durationSeconds: number;
  sizeBytes: number;
  sha256: string;
}

/** The rendition is owed: listed `pending` from the moment the evidence is stored. */
export async function owe(sequelize: Sequelize, recordingId: string, kind: RenditionKind): Promise<void> {
  await execute(
    sequelize,
    `INSERT INTO recording_renditions (recording_id, kind, status) VALUES ($1, $2, 'pending')
     ON CONFLICT (recording_id, kind) DO NOTHING`,
    { bind: [recordingId, kind] },
  );
}

export async function renditionsOf(sequelize: Sequelize, recordingId: string): Promise<RenditionRow[]> {
  return queryRows<RenditionRow>(
    sequelize,
    'SELECT * FROM recording_renditions WHERE recording_id = $1 ORDER BY kind',
    { bind: [recordingId] },
  );
}

export async function renditionOf(
  sequelize: Sequelize,
  recordingId: string,
  kind: RenditionKind,
): Promise<RenditionRow | undefined> {
  const [row] = await queryRows<RenditionRow>(
    sequelize,
    'SELECT * FROM recording_renditions WHERE recording_id = $1 AND kind = $2',
    { bind: [recordingId, kind] },
  );
  return row;
}

export async function markRenditionProcessing(
  sequelize: Sequelize,
  recordingId: string,
  kind: RenditionKind,
): Promise<void> {
  await execute(
    sequelize,
    `UPDATE recording_renditions SET status = 'processing', updated_at = now()
      WHERE recording_id = $1 AND kind = $2 AND status IN ('pending', 'processing')`,
    { bind: [recordingId, kind] },
  );
}

export async function markRenditionAvailable(
  sequelize: Sequelize,
  recordingId: string,
  kind: RenditionKind,
  made: MadeRendition,
): Promise<void> {
  await execute(
    sequelize,
    `UPDATE recording_renditions SET status = 'available', object_key = $3, content_type = $4,
            duration_seconds = $5, size_bytes = $6, sha256 = $7, failure_reason = NULL, updated_at = now()
      WHERE recording_id = $1 AND kind = $2 AND status <> 'available'`,
    {
      bind: [
        recordingId,
        kind,
        made.objectKey,
        made.contentType,
        made.durationSeconds,
        made.sizeBytes,
        made.sha256,
      ],
    },
  );
}

export async function markRenditionFailed(
  sequelize: Sequelize,
  recordingId: string,
  kind: RenditionKind,
  reason: string,
): Promise<void> {
  await execute(
    sequelize,
    `UPDATE recording_renditions SET status = 'failed', failure_reason = $3, updated_at = now()
      WHERE recording_id = $1 AND kind = $2 AND status <> 'available'`,
    { bind: [recordingId, kind, reason.slice(0, 1000)] },
  );
}
