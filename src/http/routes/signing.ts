import Joi from 'joi';
import type { SigningService } from '../../sessions/signingService';
import { SESSION_STATUSES } from '../../../workflows/sessionDefinitions';
import { failBodySchema } from '../openapi/document';
import { DomainError } from '../../domain/errors';
import { escapeHtml, page } from '../html';
import type { ApiRoutes } from '../routes';
import { answerTo } from '../middleware/errors';

const participantSchema = Joi.object({
  bn_session_id: Joi.string().guid(),
  status: Joi.string().valid(...SESSION_STATUSES),
  role: Joi.string().valid('signer', 'witness'),
  index: Joi.number().integer(),
  first_name: Joi.string().allow(null),
  last_name: Joi.string().allow(null),
  session_timing: Joi.string().isoDate().allow(null),
  joined_at: Joi.string().isoDate().allow(null),
}).label('Participant');

const tokenParams = Joi.object({
  token: Joi.string().description('The pre-authenticated token of one participant'),
});

const JOIN_SCRIPT = `document.getElementById('join').addEventListener('click', async () => {
  const res = await fetch(location.pathname + '/join', { method: 'POST', headers: { accept: 'application/json' } });
  const body = await res.json();
  document.getElementById('result').textContent = res.ok ? 'You have joined the session.' : body.response_message;
});`;

export function registerSigningRoutes(api: ApiRoutes, signing: SigningService): void {
  api.add<unknown, unknown, { token: string }>({
    method: 'get',
    path: '/sign/{token}',
    rateLimit: 'link',
    operationId: 'signingPage',
    summary: "A participant's signing page (JSON with Accept: application/json)",
    tags: ['Participants'],
    auth: 'none',
    params: tokenParams,
    responses: {
      200: { description: 'The participant and their session', schema: participantSchema },
      404: { description: 'Unknown link', schema: failBodySchema },
      410: { description: 'The session has ended; the link no longer works', schema: failBodySchema },
    },
    handler: async (ctx, { params }) => {
      const wantsJson = ctx.accepts('html', 'json') === 'json';
      let view;
      try {
        view = await signing.view(params.token);
      } catch (err) {
        if (wantsJson || !(err instanceof DomainError)) throw err;
        ctx.status = answerTo(err).status;
        ctx.type = 'html';
        ctx.body = page('Signing link', `<h1>Signing link</h1><p>${escapeHtml(err.message)}</p>`);
        return;
      }
      if (wantsJson) {
        ctx.body = view;
        return;
      }
      const name = [view.first_name, view.last_name].filter(Boolean).join(' ');
      ctx.type = 'html';
      ctx.body = page(
        'Your notarization session',
        `<h1>Your notarization session</h1>
<p>Hello${name ? ` ${escapeHtml(name)}` : ''}. You are ${view.role === 'signer' ? `signer ${view.index + 1}` : `witness ${view.index + 1}`}.</p>
<p class="muted">Session status: ${escapeHtml(view.status)}${view.session_timing ? `, scheduled for ${escapeHtml(view.session_timing)}` : ''}</p>
<button id="join">Join the session</button>
<p id="result" role="status"></p>`,
        JOIN_SCRIPT,
      );
    },
  });

  api.add<unknown, unknown, { token: string }>({
    method: 'post',
    path: '/sign/{token}/join',
    rateLimit: 'link',
    operationId: 'joinSession',
    summary: 'Join the session as this participant (idempotent)',
    description:
      'The session judges the join and records it: `joined_at` once and one `join_session` event; a repeated join ' +
      'answers 200 and records nothing new. 409 before the session opens (pretag hold, or before `session_timing`, ' +
      'with `Retry-After`), after it ends, and for a non-host signer in same-device mode.',
    tags: ['Participants'],
    auth: 'none',
    params: tokenParams,
    responses: {
      200: {
        description: 'Joined',
        schema: participantSchema.keys({ response: Joi.string().valid('Pass') }),
      },
      404: { description: 'Unknown link', schema: failBodySchema },
      409: {
        description: 'The session is not open to this participant now',
        schema: failBodySchema,
        headers: { 'Retry-After': 'Seconds until session_timing, for a scheduled session' },
      },
    },
    handler: async (ctx, { params }) => {
      ctx.body = { response: 'Pass', ...(await signing.join(params.token)) };
    },
  });

  api.add<unknown, { notarization_id?: string; bn_session_id?: string }>({
    method: 'get',
    path: '/complete',
    operationId: 'completionPage',
    summary: 'Completion page; redirects to the account’s completion redirect URL when set',
    description:
      'With `bn_session_id` (or a `notarization_id` that belongs to one account only), participants of an account ' +
      'with a completion redirect URL are sent there with `notarization_id` as a query parameter.',
    tags: ['Participants'],
    auth: 'none',
    query: Joi.object({
      notarization_id: Joi.string().max(255).allow(''),
      bn_session_id: Joi.string().guid(),
    }),
    responses: {
      200: { description: 'Completion page', contentType: 'text/html' },
      302: {
        description: 'Redirect to the account’s completion URL',
        headers: { Location: 'The redirect target' },
      },
    },
    handler: async (ctx, { query }) => {
      const redirect = await signing.completionRedirect(query);
      if (redirect) {
        const target = new URL(redirect);
        target.searchParams.set('notarization_id', query.notarization_id ?? '');
        ctx.redirect(target.toString());
        return;
      }
      ctx.type = 'html';
      ctx.body = page(
        'Notarization complete',
        `<h1>Thank you</h1><p>Your notarization session is complete.</p>${
          query.notarization_id ? `<p class="muted">Reference: ${escapeHtml(query.notarization_id)}</p>` : ''
        }`,
      );
    },
  });
}
