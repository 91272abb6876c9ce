import Joi from 'joi';
import { SIGNED_DOWNLOAD } from './signedLinks';
import type { RecordingViews } from '../../media/recordingViews';
import type { SessionService } from '../../sessions/sessionService';
import { sessionIdParams } from '../../sessions/schemas';
import { failBodySchema } from '../openapi/document';
import type { AppContext } from '../context';
import { NOT_THE_SESSIONS_NOTARY, sessionOfItsNotary } from './sessionOfItsNotary';
import type { ApiRoutes, RouteDefinition } from '../routeTable';

const track = Joi.object({
  identity: Joi.string(),
  kind: Joi.string().valid('audio', 'video'),
  size_bytes: Joi.number().integer(),
});
const rendition = Joi.object({
  kind: Joi.string()
    .valid('grid')
    .description('`grid`: everyone’s video side by side, labelled, voices mixed'),
  status: Joi.string()
    .valid('pending', 'processing', 'available', 'failed')
    .description(
      '`pending` from when the evidence is stored, `processing` while composed, then `available` or `failed`',
    ),
  content_type: Joi.string().allow(null).description('video/webm: one VP8 video, one Opus audio'),
  duration_seconds: Joi.number().allow(null),
  size_bytes: Joi.number().integer().allow(null),
  sha256: Joi.string()
    .allow(null)
    .description('Of this file: a view made from the evidence, not the evidence'),
  download_url: Joi.string().uri().allow(null).description('Absolute, signed, short-lived; once available'),
  expires_at: Joi.string().isoDate().allow(null),
  available_at: Joi.string().isoDate().allow(null),
  failure_reason: Joi.string(),
}).label('RecordingRendition');

const recording = Joi.object({
  recording_id: Joi.string().guid(),
  status: Joi.string()
    .valid('recording', 'processing', 'available', 'failed')
    .description(
      '`recording` while the act is live, `processing` while its file is made, then `available` or `failed`',
    ),
  content_type: Joi.string()
    .allow(null)
    .description(
      'video/webm: every participant’s VP8 video and Opus audio as the media server received them (not ' +
        're-encoded), a track each, titled with who it is and placed on the act’s clock',
    ),
  duration_seconds: Joi.number().allow(null),
  size_bytes: Joi.number().integer().allow(null),
  sha256: Joi.string().allow(null).description('Of the file; also in the audit chain and the journal'),
  started_at: Joi.string().isoDate().description('When the first room opened: the notary’s start'),
  ended_at: Joi.string().isoDate().allow(null),
  segments: Joi.array()
    .items(
      Joi.object({
        segment: Joi.number().integer(),
        started_at: Joi.string().isoDate(),
        ended_at: Joi.string().isoDate().allow(null),
        duration_seconds: Joi.number().allow(null),
        participants: Joi.array()
          .items(
            Joi.object({
              identity: Joi.string().description('`notary`, `signer-<index>` or `witness-<index>`'),
              intervals: Joi.array()
                .items(Joi.object({ from: Joi.string().isoDate(), to: Joi.string().isoDate() }))
                .description('When they were on camera (audio and video received), by the media server'),
            }),
          )
          .description('Everyone in the room, and when each was on camera'),
        tracks: Joi.array().items(track).description('The media server’s own per-stream files, kept with it'),
      }),
    )
    .description('One per room: a media server restart during the act closes one and opens the next'),
  download_url: Joi.string().uri().allow(null).description('Absolute, signed, short-lived; once available'),
  expires_at: Joi.string().isoDate().allow(null),
  retain_until: Joi.string()
    .isoDate()
    .allow(null)
    .description('Kept at least until then (RECORDING_RETENTION)'),
  available_at: Joi.string().isoDate().allow(null).description('When it became `available`'),
  failure_reason: Joi.string(),
  renditions: Joi.array()
    .items(rendition)
    .description('Views made from the evidence after it is stored, each with its own hash; never before it'),
}).label('Recording');

const sessionFor = (ctx: AppContext, sessions: SessionService, id: string) =>
  sessionOfItsNotary(ctx, sessions, id, 'Only the session’s notary or an admin sees its recording');

function getRecordingRoute(
  sessions: SessionService,
  views: RecordingViews,
): RouteDefinition<unknown, unknown, { id: string }> {
  return {
    method: 'get',
    path: '/sessions/{id}/recording',
    operationId: 'getRecording',
    summary: 'The audio-video recording of the act',
    description:
      'A live act is recorded from the notary’s start to completion: every participant’s audio and video, ' +
      'copied as received into one file (the evidence), hashed, and kept for RECORDING_RETENTION (10 years by ' +
      'default); `available` within a minute of the act’s end. Event `recording_available` when it is stored. ' +
      'The composed grid (`renditions`) is made from it afterwards, in the background; event `rendition_available` ' +
      'or `rendition_failed` when it is done.',
    tags: ['Signed documents'],
    auth: 'session_actor',
    params: sessionIdParams,
    responses: {
      200: {
        description: 'The recording',
        schema: Joi.object({ response: Joi.string().valid('Pass'), recording }),
      },
      403: NOT_THE_SESSIONS_NOTARY,
      404: {
        description: '`Session not found`; `Recording not found` before the act starts and in test mode',
        schema: failBodySchema,
      },
    },
    handler: async (ctx, { params }) => {
      const session = await sessionFor(ctx, sessions, params.id);
      ctx.body = { response: 'Pass', recording: await views.ofSession(session.id) };
    },
  };
}

function downloadRecordingRoute(
  views: RecordingViews,
): RouteDefinition<unknown, { expires: string; signature: string }, { id: string }> {
  return {
    method: 'get',
    path: '/recordings/{id}/download',
    operationId: 'downloadRecording',
    summary: 'Download a recording through its signed, expiring URL (no key)',
    description:
      'Where recordings are on the service’s disk; from S3 the URL is the bucket’s own, presigned.',
    tags: ['Signed documents'],
    ...SIGNED_DOWNLOAD,
    responses: {
      200: { description: 'The recording', contentType: 'video/webm' },
      403: { description: 'Expired, altered or incomplete link', schema: failBodySchema },
      404: { description: 'Recording not found', schema: failBodySchema },
    },
    handler: async (ctx, { params, query }) => {
      const file = await views.download(params.id, query);
      ctx.type = file.contentType;
      ctx.length = file.size;
      ctx.set('Content-Disposition', `attachment; filename="${file.fileName}"`);
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = file.stream;
    },
  };
}

function downloadRenditionRoute(
  views: RecordingViews,
): RouteDefinition<unknown, { expires: string; signature: string }, { id: string; kind: 'grid' }> {
  return {
    method: 'get',
    path: '/recordings/{id}/renditions/{kind}/download',
    operationId: 'downloadRecordingRendition',
    summary: 'Download a view made from a recording (the grid) through its signed, expiring URL (no key)',
    description: 'As the recording’s own download: from S3 the URL is the bucket’s own, presigned.',
    tags: ['Signed documents'],
    ...SIGNED_DOWNLOAD,
    params: Joi.object({ id: Joi.string().max(100), kind: Joi.string().valid('grid') }),
    responses: {
      200: { description: 'The rendition', contentType: 'video/webm' },
      403: { description: 'Expired, altered or incomplete link', schema: failBodySchema },
      404: { description: 'Recording not found', schema: failBodySchema },
    },
    handler: async (ctx, { params, query }) => {
      const file = await views.download(params.id, query, params.kind);
      ctx.type = file.contentType;
      ctx.length = file.size;
      ctx.set('Content-Disposition', `attachment; filename="${file.fileName}"`);
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = file.stream;
    },
  };
}

export function registerRecordingRoutes(
  api: ApiRoutes,
  sessions: SessionService,
  views: RecordingViews,
): void {
  api.add(getRecordingRoute(sessions, views));
  api.add(downloadRecordingRoute(views));
  api.add(downloadRenditionRoute(views));
}
