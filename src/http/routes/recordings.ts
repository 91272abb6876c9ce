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
const recording = Joi.object({
  recording_id: Joi.string().guid(),
  status: Joi.string()
    .valid('recording', 'processing', 'available', 'failed')
    .description(
      '`recording` while the act is live, `processing` while its file is made, then `available` or `failed`',
    ),
  content_type: Joi.string()
    .allow(null)
    .description('video/webm: VP8 video of everyone, Opus audio of everyone'),
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
      'composed into one file, hashed, and kept for RECORDING_RETENTION (10 years by default). Event ' +
      '`recording_available` when it is stored.',
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

export function registerRecordingRoutes(
  api: ApiRoutes,
  sessions: SessionService,
  views: RecordingViews,
): void {
  api.add(getRecordingRoute(sessions, views));
  api.add(downloadRecordingRoute(views));
}
