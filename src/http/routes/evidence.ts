import type { EvidenceBundles } from '../../sessions/evidenceBundle';
import type { SessionService } from '../../sessions/sessionService';
import { sessionIdParams } from '../../sessions/schemas';
import { failBodySchema } from '../openapi/document';
import type { ApiRoutes } from '../routeTable';
import { NOT_THE_SESSIONS_NOTARY, sessionOfItsNotary } from './sessionOfItsNotary';

/** The act's evidence in one archive (contract §8). */
export function registerEvidenceRoute(
  api: ApiRoutes,
  sessions: SessionService,
  bundles: EvidenceBundles,
): void {
  api.add<unknown, unknown, { id: string }>({
    method: 'get',
    path: '/sessions/{id}/evidence',
    operationId: 'getEvidenceBundle',
    summary: 'The act’s whole evidence as one ZIP, with a manifest of every file’s sha256',
    description:
      '`manifest.json` (`bn_session_id`, `notarization_id`, `test`, `generated_at`, `files: [{path, sha256, ' +
      'size_bytes}]` for every other file), `documents/<name>.pdf` (each notarized document byte for byte as GET ' +
      '/sessions/{id}/documents serves it), `audit-trail.json` (`records` in order with each hash and the previous ' +
      'one, `verification: {algorithm, intact}`), `identity.json` (per participant, each identity check: method, ' +
      'outcome, attempt, provider, reasons, times; no answers, no images), and for a live act `recording.json` (as ' +
      'GET /sessions/{id}/recording, without the download URL) and `journal.json` (the journal entries). Streamed. ' +
      'docs/evidence.md shows how to check it offline.',
    tags: ['Signed documents'],
    auth: 'session_actor',
    params: sessionIdParams,
    responses: {
      200: { description: 'The archive', contentType: 'application/zip' },
      403: NOT_THE_SESSIONS_NOTARY,
      404: { description: '`Session not found` (another account’s among them)', schema: failBodySchema },
      409: {
        description: '`Evidence is available once the session is completed and its documents are final`',
        schema: failBodySchema,
      },
    },
    handler: async (ctx, { params }) => {
      const session = await sessionOfItsNotary(
        ctx,
        sessions,
        params.id,
        'Only the session’s notary or an admin takes its evidence',
      );
      const body = bundles.open(session);
      ctx.type = 'application/zip';
      ctx.set('Content-Disposition', `attachment; filename="evidence-${session.id}.zip"`);
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = body;
    },
  });
}
