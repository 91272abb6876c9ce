import type { Readable } from 'node:stream';
import type { Sequelize } from 'sequelize';
import { notFound, refused } from '../domain/errors';
import type { ObjectStore } from '../objectStore/objectStore';
import { API_PREFIX } from '../publicPaths';
import { UrlSigner } from '../crypto/urlSigner';
import { recordingById, recordingOf, type RecordingRow } from './recordings';
import { roomsOf } from './rooms';

/** Contract §7's recording: where it stands and, once available, a short-lived link to it. */
export interface RecordingView {
  recording_id: string;
  status: RecordingRow['status'];
  content_type: string | null;
  duration_seconds: number | null;
  size_bytes: number | null;
  sha256: string | null;
  started_at: string;
  ended_at: string | null;
  segments: Array<{
    segment: number;
    started_at: string;
    ended_at: string | null;
    duration_seconds: number | null;
    participants: Array<{ identity: string; intervals: Array<{ from: string; to: string }> }>;
    tracks: Array<{ identity: string; kind: string; size_bytes: number }>;
  }>;
  download_url: string | null;
  expires_at: string | null;
  retain_until: string | null;
  available_at: string | null;
  failure_reason?: string;
}

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

/** Recordings for the API: their state, and downloads by expiring link (the store's own, or the API's). */
export class RecordingViews {
  private readonly signer: UrlSigner;

  constructor(
    private readonly sequelize: Sequelize,
    private readonly store: ObjectStore,
    secret: Buffer,
    private readonly baseUrl: string,
    private readonly ttlSeconds: number,
  ) {
    this.signer = new UrlSigner(secret, 'recording-download:');
  }

  async ofSession(sessionId: string): Promise<RecordingView> {
    const row = await recordingOf(this.sequelize, sessionId);
    if (!row) throw notFound('Recording not found');
    const link = row.status === 'available' ? await this.linkTo(row) : undefined;
    return {
      recording_id: row.id,
      status: row.status,
      content_type: row.content_type,
      duration_seconds: row.duration_seconds === null ? null : Number(row.duration_seconds),
      size_bytes: row.size_bytes === null ? null : Number(row.size_bytes),
      sha256: row.sha256,
      started_at: iso(row.started_at)!,
      ended_at: iso(row.ended_at),
      segments: await this.segmentsOf(row),
      download_url: link?.url ?? null,
      expires_at: link?.expiresAt.toISOString() ?? null,
      retain_until: iso(row.retain_until),
      available_at: row.status === 'available' ? iso(row.updated_at) : null,
      ...(row.failure_reason ? { failure_reason: row.failure_reason } : {}),
    };
  }

  /** The recording's bytes for a valid link; the store streams them, never the database. */
  async download(
    recordingId: string,
    link: { expires?: string; signature?: string },
  ): Promise<{ stream: Readable; size: number; contentType: string; fileName: string }> {
    if (!this.signer.isValid(recordingId, String(link.expires), String(link.signature)))
      throw refused('This download link is invalid or has expired');
    const row = await recordingById(this.sequelize, recordingId);
    if (row?.status !== 'available' || !row.object_key) throw notFound('Recording not found');
    return {
      stream: await this.store.openRead(row.object_key),
      size: Number(row.size_bytes),
      contentType: row.content_type ?? 'application/octet-stream',
      fileName: `recording-${row.session_id}.webm`,
    };
  }

  private async linkTo(row: RecordingRow): Promise<{ url: string; expiresAt: Date }> {
    const expiresAt = new Date(Date.now() + this.ttlSeconds * 1000);
    const presigned = await this.store.presignedUrl(
      row.object_key!,
      this.ttlSeconds,
      `recording-${row.session_id}.webm`,
    );
    if (presigned) return { url: presigned, expiresAt };
    const { expires, signature } = this.signer.sign(row.id, this.ttlSeconds);
    const url = new URL(`${this.baseUrl}${API_PREFIX}/recordings/${row.id}/download`);
    url.searchParams.set('expires', String(expires));
    url.searchParams.set('signature', signature);
    return { url: url.toString(), expiresAt: new Date(expires * 1000) };
  }

  /** Made segments as the recording lists them; while the act is live, its rooms so far. */
  private async segmentsOf(row: RecordingRow): Promise<RecordingView['segments']> {
    if (row.segments.length)
      return row.segments.map((s) => ({
        ...s,
        tracks: s.tracks.map(({ identity, kind, size_bytes }) => ({ identity, kind, size_bytes })),
      }));
    return (await roomsOf(this.sequelize, row.session_id)).map((room) => ({
      segment: room.segment,
      started_at: iso(room.opened_at)!,
      ended_at: iso(room.closed_at),
      duration_seconds: room.closed_at
        ? (new Date(room.closed_at).getTime() - new Date(room.opened_at).getTime()) / 1000
        : null,
      participants: [],
      tracks: [],
    }));
  }
}
