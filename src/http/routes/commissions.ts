import Joi from 'joi';
import type { Sequelize } from 'sequelize';
import { API_PREFIX } from '../../publicPaths';
import type { TemporalHandle } from '../../temporal/client';
import type { TeamService } from '../../team/teamService';
import { joiErrors, onboardingSchema, type OnboardingInput } from '../../team/teamSchemas';
import { validationFailed } from '../../team/teamErrors';
import { confirmCommissionChange, describeChange, type CommissionFacts } from '../../team/commissionChanges';
import { startMailDelivery } from '../../mail/mailDelivery';
import { unavailable, UNAVAILABLE_MESSAGE } from '../../domain/errors';
import { isUnavailable } from '../../outages';
import { failBodySchema } from '../openapi/document';
import { escapeHtml, page } from '../html';
import { principalOf } from '../context';
import type { ApiRoutes, RouteDefinition } from '../routeTable';
import { validationFailure } from './team';

const facts = Joi.object({
  first_name: Joi.string().allow(null),
  last_name: Joi.string().allow(null),
  state: Joi.string().allow(null),
  county: Joi.string().allow(null),
  commission_number: Joi.string().allow(null),
  commission_expires_on: Joi.string().allow(null),
}).label('CommissionFacts');

const FACT_LABELS: Array<[keyof CommissionFacts & string, string]> = [
  ['first_name', 'First name'],
  ['last_name', 'Last name'],
  ['state', 'State'],
  ['county', 'County'],
  ['commission_number', 'Commission number'],
  ['commission_expires_on', 'Expires on'],
];

/** The page of the confirmation e-mail: what would change, and one button that confirms it (never the GET). */
function confirmationPage(
  changeId: string,
  key: string,
  change: { before: CommissionFacts | null; after: CommissionFacts; requestedThrough: string | null },
): string {
  const rows = FACT_LABELS.map(
    ([field, label]) =>
      `<tr><th scope="row">${label}</th><td>${escapeHtml(change.before?.[field] ?? '—')}</td>` +
      `<td>${escapeHtml(change.after[field] ?? '—')}</td></tr>`,
  ).join('');
  const confirmation = JSON.stringify({ key }).replace(/</g, '\\u003c');
  const confirmPath = `${API_PREFIX}/notary/commission_changes/${changeId}/confirm`;
  return page(
    'Confirm your notary commission',
    `<main><h1>Confirm your notary commission</h1>
<p>${escapeHtml(change.requestedThrough ?? 'A vendor')} asked, through a login link it gave you, to record this commission for you.
Every certificate you sign states it: confirm only if it is yours.</p>
<table><thead><tr><th scope="col"></th><th scope="col">On file</th><th scope="col">Asked for</th></tr></thead>
<tbody>${rows}</tbody></table>
<p><button type="button" id="confirm" data-path="${escapeHtml(confirmPath)}">Confirm this commission</button></p>
<p id="status" role="status" data-state="pending"></p></main>
<script type="application/json" id="confirmation">${confirmation}</script>
<script src="/assets/commission-confirm.js"></script>`,
    'table{border-collapse:collapse;margin:1rem 0}th,td{text-align:left;padding:.3rem .8rem;border-bottom:1px solid #ddd}',
  );
}

const linkParams = Joi.object({ id: Joi.string().max(100) });

const unknownLink = { description: '`Confirmation link not found or expired`', schema: failBodySchema };

/** A notary asks to record their own commission (onboarding, or a renewal); they confirm it by e-mail */
function completeNotaryOnboardingRoute(deps: {
  team: TeamService;
  sequelize: Sequelize;
  temporal: TemporalHandle;
  taskQueue: string;
}): RouteDefinition<OnboardingInput> {
  return {
    method: 'post',
    path: '/notary/onboarding',
    operationId: 'completeNotaryOnboarding',
    summary:
      'A notary asks to record their own commission (onboarding, or a renewal); they confirm it by e-mail',
    description:
      'With the notary’s own access token (from a login link). A commission is the person’s, across every vendor ' +
      'that links them, and a vendor mints its members’ login links: so nothing changes until the notary confirms ' +
      'from the e-mail sent to their address (valid COMMISSION_CONFIRMATION_TTL, default 24 hours), which records the ' +
      'commission every certificate of theirs will state and renders their seal. Every change is audited with who ' +
      'asked, through which credential, and its confirmation (admin CLI `commission-history`). Vendors write a ' +
      'commission only by the automatic onboarding of an invite, for a notary who has none on file.',
    tags: ['Team members'],
    auth: 'team_member',
    body: onboardingSchema,
    reportAllErrors: true,
    onInvalid: (error) => validationFailed(joiErrors(error)),
    responses: {
      202: {
        description:
          'Asked: the confirmation e-mail is on its way; the commission on file is unchanged until then',
        schema: Joi.object({
          success: Joi.boolean(),
          response_message: Joi.string(),
          change_id: Joi.string().guid(),
          confirmation_sent_to: Joi.string().description('The notary’s address, partly masked'),
          expires_at: Joi.string().isoDate(),
        }),
      },
      403: { description: 'The member is not a notary', schema: failBodySchema },
      422: { description: 'Validation failed', schema: validationFailure },
    },
    handler: async (ctx, { body }) => {
      const { accountId, member } = principalOf(ctx);
      const { pending, outboxId } = await deps.team.requestOnboarding(accountId, member!.id, body);
      try {
        await startMailDelivery(deps.temporal, deps.taskQueue, outboxId);
      } catch (err) {
        // Nothing is lost: the change stays pending unconfirmed, and asking again sends a new e-mail.
        if (isUnavailable(err)) throw unavailable(UNAVAILABLE_MESSAGE);
        throw err;
      }
      ctx.status = 202;
      ctx.body = {
        success: true,
        response_message: 'Confirm the commission from the e-mail sent to you; nothing changes until then',
        change_id: pending.changeId,
        confirmation_sent_to: masked(pending.email),
        expires_at: pending.expiresAt.toISOString(),
      };
    },
  };
}

/** The page of a commission confirmation e-mail: the change asked for, and a button to confirm it */
function commissionConfirmationPageRoute(deps: {
  team: TeamService;
  sequelize: Sequelize;
  temporal: TemporalHandle;
  taskQueue: string;
}): RouteDefinition<unknown, { key: string }, { id: string }> {
  return {
    method: 'get',
    path: '/commission_changes/{id}',
    rateLimit: 'link',
    operationId: 'commissionConfirmationPage',
    summary: 'The page of a commission confirmation e-mail: the change asked for, and a button to confirm it',
    tags: ['Team members'],
    auth: 'none',
    params: linkParams,
    query: Joi.object({ key: Joi.string().max(200).required() }),
    responses: {
      200: { description: 'HTML page', contentType: 'text/html' },
      400: { description: 'No key', schema: failBodySchema },
      404: unknownLink,
    },
    handler: async (ctx, { params, query }) => {
      const change = await describeChange(deps.sequelize, params.id, query.key);
      ctx.type = 'html';
      ctx.body = confirmationPage(params.id, query.key, change);
    },
  };
}

/** Confirm a commission change with the key of its confirmation e-mail */
function confirmCommissionChangeRoute(deps: {
  team: TeamService;
  sequelize: Sequelize;
  temporal: TemporalHandle;
  taskQueue: string;
}): RouteDefinition<{ key: string }, unknown, { id: string }> {
  return {
    method: 'post',
    path: '/notary/commission_changes/{id}/confirm',
    rateLimit: 'link',
    operationId: 'confirmCommissionChange',
    summary: 'Confirm a commission change with the key of its confirmation e-mail',
    description:
      'Records the commission and renders the seal; other changes still unconfirmed are dropped. Confirming again ' +
      'answers the same. Sessions already completed keep the commission they were certified under.',
    tags: ['Team members'],
    auth: 'none',
    params: linkParams,
    body: Joi.object({ key: Joi.string().max(200).required() }),
    responses: {
      200: {
        description: 'Recorded',
        schema: Joi.object({ success: Joi.boolean(), commission: facts }),
      },
      404: unknownLink,
      409: { description: 'A later change was confirmed first', schema: failBodySchema },
    },
    handler: async (ctx, { params, body }) => {
      ctx.body = {
        success: true,
        commission: await confirmCommissionChange(deps.sequelize, params.id, body.key),
      };
    },
  };
}

export function registerCommissionRoutes(
  site: ApiRoutes,
  api: ApiRoutes,
  deps: { team: TeamService; sequelize: Sequelize; temporal: TemporalHandle; taskQueue: string },
): void {
  api.add(completeNotaryOnboardingRoute(deps));

  site.add(commissionConfirmationPageRoute(deps));

  api.add(confirmCommissionChangeRoute(deps));
}

/** `n•••@example.com`: enough for the notary to know where to look, not a directory for the caller. */
function masked(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, 1)}•••${email.slice(at)}`;
}
