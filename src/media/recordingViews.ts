import type { Readable } from 'node:stream';
import type { Sequelize } from 'sequelize';
import { notFound, refused } from '../domain/errors';
import type { ObjectStore } from '../objectStore/objectStore';
import { API_PREFIX } from '../publicPaths';
import { UrlSigner } from '../crypto/urlSigner';
import { recordingById, recordingOf, type RecordingRow } from './recordings';
import { roomsOf } from './rooms';
import { renditionOf, renditionsOf, type RenditionRow } from './renditions';
import type { RenditionKind } from '../../core/session/media';

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
  renditions: RenditionView[];
}

/** What is made from the evidence afterwards (the composed grid): its own file, hash and link. */
export interface RenditionView {
  kind: RenditionKind;
  status: RenditionRow['status'];
  content_type: string | null;
  duration_seconds: number | null;
  size_bytes: number | null;
  sha256: string | null;
  download_url: string | null;
  expires_at: string | null;
  available_at: string | null;
  failure_reason?: string;
}

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

const fileNameOf = (row: RecordingRow, kind?: RenditionKind) =>
  `recording-${row.session_id}${kind ? `-${kind}` : ''}.webm`;

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
      renditions: await this.renditionsOf(row),
    };
  }

  private async renditionsOf(recording: RecordingRow): Promise<RenditionView[]> {
    const views: RenditionView[] = [];
    for (const r of await renditionsOf(this.sequelize, recording.id)) {
      const link =
        r.status === 'available'
          ? await this.link(
              `${recording.id}:${r.kind}`,
              r.object_key!,
              fileNameOf(recording, r.kind),
              `/renditions/${r.kind}`,
            )
          : undefined;
      views.push({
        kind: r.kind,
        status: r.status,
        content_type: r.content_type,
        duration_seconds: r.duration_seconds === null ? null : Number(r.duration_seconds),
        size_bytes: r.size_bytes === null ? null : Number(r.size_bytes),
        sha256: r.sha256,
        download_url: link?.url ?? null,
        expires_at: link?.expiresAt.toISOString() ?? null,
        available_at: r.status === 'available' ? iso(r.updated_at) : null,
        ...(r.failure_reason ? { failure_reason: r.failure_reason } : {}),
      });
    }
    return views;
  }

  /** The recording's bytes (or a rendition's) for a valid link; the store streams them, never the database. */
  async download(
    recordingId: string,
    link: { expires?: string; signature?: string },
    kind?: RenditionKind,
  ): Promise<{ stream: Readable; size: number; contentType: string; fileName: string }> {
    const signed = kind ? `${recordingId}:${kind}` : recordingId;
    if (!this.signer.isValid(signed, String(link.expires), String(link.signature)))
      throw refused('This download link is invalid or has expired');
    const row = await recordingById(this.sequelize, recordingId);
    if (row?.status !== 'available' || !row.object_key) throw notFound('Recording not found');
    const file = kind ? await renditionOf(this.sequelize, row.id, kind) : row;
    if (file?.status !== 'available' || !file.object_key) throw notFound('Recording not found');
    return {
      stream: await this.store.openRead(file.object_key),
      size: Number(file.size_bytes),
      contentType: file.content_type ?? 'application/octet-stream',
      fileName: fileNameOf(row, kind),
    };
  }

  private linkTo(row: RecordingRow): Promise<{ url: string; expiresAt: Date }> {
    return this.link(row.id, row.object_key!, fileNameOf(row), '');
  }

  /** The store's own presigned URL, or else the API's signed one (`signed` names what it opens). */
  private async link(
    signed: string,
    objectKey: string,
    fileName: string,
    suffix: string,
  ): Promise<{ url: string; expiresAt: Date }> {
    const expiresAt = new Date(Date.now() + this.ttlSeconds * 1000);
    const presigned = await this.store.presignedUrl(objectKey, this.ttlSeconds, fileName);
    if (presigned) return { url: presigned, expiresAt };
    const { expires, signature } = this.signer.sign(signed, this.ttlSeconds);
    const url = new URL(`${this.baseUrl}${API_PREFIX}/recordings/${signed.split(':')[0]}${suffix}/download`);
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
