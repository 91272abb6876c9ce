import Joi from 'joi';
import type { TeamService } from '../../team/teamService';
import { inviteSchema, joiErrors, type InviteInput } from '../../team/teamSchemas';
import { invalidId, validationFailed } from '../../team/teamErrors';
import { failBodySchema } from '../openapi/document';
import { paginationSchema } from '../../sessions/schemas';
import { principalOf } from '../context';
import type { ApiRoutes, RouteDefinition } from '../routeTable';

const memberFields = {
  id: Joi.string().guid(),
  email: Joi.string(),
  name: Joi.string(),
  business_role: Joi.string().valid('notary', 'pretagger', 'admin'),
  onboarding_status: Joi.string().valid('pending', 'complete'),
  state: Joi.string().allow(null),
  county: Joi.string().allow(null),
  created_at: Joi.string().isoDate(),
  updated_at: Joi.string().isoDate(),
};
const memberSchema = Joi.object(memberFields).label('TeamMember');
export const invitedSchema = Joi.object({
  ...memberFields,
  first_name: Joi.string(),
  last_name: Joi.string(),
  commission_number: Joi.string().allow(null),
  commission_expires_on: Joi.string().isoDate().allow(null),
  vendor_user_id: Joi.string().allow(null),
}).label('InvitedTeamMember');

const teamFail = failBodySchema;
export const validationFailure = Joi.object({
  response: Joi.string().valid('Fail'),
  response_message: Joi.string().valid('Validation failed'),
  errors: Joi.array().items(Joi.object({ param: Joi.string(), msg: Joi.string() })),
}).label('ValidationFailed');
const idParams = Joi.object({
  id: Joi.string().description('team_member_id (UUID); malformed: 422 INVALID_ID'),
});
const checkId = (error: Joi.ValidationError) => invalidId(String(error.details[0]?.path[0] ?? 'id'));

function listTeamMembersRoute(
  team: TeamService,
): RouteDefinition<unknown, { page: number; limit: number; role?: string; email?: string }> {
  return {
    method: 'get',
    path: '/team_members',
    operationId: 'listTeamMembers',
    summary: "The vendor's linked team members, newest first",
    description: '`email` is a case-insensitive partial match in which `%` and `_` are literal characters.',
    tags: ['Team members'],
    auth: 'vendor',
    query: Joi.object({
      page: Joi.number().integer().min(1).default(1),
      limit: Joi.number().integer().min(1).max(100).default(25),
      role: Joi.string().valid('notary', 'pretagger', 'admin'),
      email: Joi.string().max(254),
    }),
    reportAllErrors: true,
    onInvalid: (error) => validationFailed(joiErrors(error)),
    responses: {
      200: {
        description: 'A page of members',
        schema: Joi.object({ data: Joi.array().items(memberSchema), pagination: paginationSchema }),
      },
      422: { description: 'Validation failed', schema: validationFailure },
    },
    handler: async (ctx, { query }) => {
      ctx.body = await team.list(principalOf(ctx).accountId, query);
    },
  };
}

/** One team member */
function getTeamMemberRoute(team: TeamService): RouteDefinition<unknown, unknown, { id: string }> {
  return {
    method: 'get',
    path: '/team_members/{id}',
    operationId: 'getTeamMember',
    summary: 'One team member',
    tags: ['Team members'],
    auth: 'vendor',
    params: idParams,
    onInvalid: checkId,
    responses: {
      200: { description: 'The member', schema: memberSchema },
      404: { description: '`Team member not found`', schema: teamFail },
      422: { description: 'Malformed id', schema: validationFailure },
    },
    handler: async (ctx, { params }) => {
      ctx.body = await team.get(principalOf(ctx).accountId, params.id);
    },
  };
}

/** Unlink a team member (spec 3): the account is kept as a free account */
function unlinkTeamMemberRoute(team: TeamService): RouteDefinition<unknown, unknown, { id: string }> {
  return {
    method: 'delete',
    path: '/team_members/{id}',
    operationId: 'unlinkTeamMember',
    summary: 'Unlink a team member (spec 3): the account is kept as a free account',
    tags: ['Team members'],
    auth: 'vendor',
    params: idParams,
    onInvalid: checkId,
    responses: {
      200: { description: 'Unlinked', schema: Joi.object({ success: Joi.boolean(), message: Joi.string() }) },
      403: { description: '`Vendor admin user not found`', schema: teamFail },
      404: { description: '`Team member link not found`', schema: teamFail },
      422: { description: 'Malformed id', schema: validationFailure },
    },
    handler: async (ctx, { params }) => {
      ctx.body = await team.unlink(principalOf(ctx).accountId, params.id);
    },
  };
}

/** A 12-hour auto-login link for a team member */
function createLoginLinkRoute(team: TeamService): RouteDefinition<{ email: string }> {
  return {
    method: 'post',
    path: '/login_links',
    operationId: 'createLoginLink',
    summary: 'A 12-hour auto-login link for a team member',
    description:
      'Reusable until it expires. `login_link` is `{FRONT_URL}/auto/{login_link_id}?key={login_key}`, URL-encoded.',
    tags: ['Login links'],
    auth: 'vendor',
    body: Joi.object({ email: Joi.string().trim().max(254).required() }),
    reportAllErrors: true,
    onInvalid: (error) => validationFailed(joiErrors(error)),
    responses: {
      200: {
        description: 'The link',
        schema: Joi.object({
          success: Joi.boolean(),
          login_link: Joi.string().uri(),
          expires_in: Joi.number().integer().valid(43200),
        }),
      },
      404: { description: '`User not found`: no such member of this vendor', schema: teamFail },
      422: { description: 'Validation failed', schema: validationFailure },
    },
    handler: async (ctx, { body }) => {
      ctx.body = await team.createLoginLink(principalOf(ctx).accountId, body.email);
    },
  };
}

/** Spec 4.5: invite a team member (and its alias path). */
function inviteRoute(path: string, team: TeamService): RouteDefinition<InviteInput> {
  return {
    method: 'post',
    path,
    operationId: path.endsWith('invite') ? 'inviteTeamMember' : 'createTeamMember',
    summary: path.endsWith('invite')
      ? 'Invite a team member'
      : 'Invite a team member (alias of /team_members/invite)',
    description:
      'A new user is created and linked (201); an existing user not linked to this vendor is linked (201); an already ' +
      'linked user answers 200 `{success, already_linked: true, team_member_id}`. Names, role, role_options, ' +
      'vendor_user_id and optional_metadata belong to this vendor’s link alone: no other vendor sees or changes ' +
      'them. With automatic onboarding completion, a notary needs state, county, commission_number and ' +
      'commission_expires_on (400 otherwise); a notary with no commission on file is onboarded with them and gets ' +
      'a seal generated from their state’s template. A commission on file is the notary’s own and is never ' +
      'changed by an invite. `state`, `county` and the commission in responses are the notary’s public commission ' +
      'facts. A notary without one is `pending` until POST /notary/onboarding.',
    tags: ['Team members'],
    auth: 'vendor',
    body: inviteSchema,
    reportAllErrors: true,
    onInvalid: (error) => validationFailed(joiErrors(error)),
    responses: {
      200: {
        description: 'Already linked',
        schema: Joi.object({
          success: Joi.boolean(),
          already_linked: Joi.boolean(),
          team_member_id: Joi.string().guid(),
        }),
      },
      201: {
        description:
          'Created or linked. `ignored_fields` lists what this invite sent but did not apply: the commission ' +
          "fields when the notary's commission is already on file (written by whoever onboarded them first) or " +
          'when this vendor has no automatic onboarding, and `password` for a user who already exists.',
        schema: Joi.object({
          success: Joi.boolean(),
          user_data: invitedSchema,
          ignored_fields: Joi.array().items(
            Joi.string().valid('password', 'state', 'county', 'commission_number', 'commission_expires_on'),
          ),
        }),
      },
      400: { description: 'Missing mandatory fields for notary onboarding', schema: teamFail },
      422: { description: 'Validation failed', schema: validationFailure },
    },
    handler: async (ctx, { body }) => {
      const result = await team.invite(principalOf(ctx).accountId, body);
      ctx.status = result.status;
      ctx.body = result.body;
    },
  };
}

/** The notary's seal as an image. */
function sealRoute(
  format: 'png' | 'svg',
  team: TeamService,
): RouteDefinition<unknown, unknown, { id: string }> {
  return {
    method: 'get',
    path: `/team_members/{id}/seal.${format}`,
    operationId: `getTeamMemberSeal_${format}`,
    summary: `The notary's generated seal (${format.toUpperCase()})`,
    tags: ['Team members'],
    auth: 'vendor',
    params: idParams,
    onInvalid: checkId,
    responses: {
      200: { description: 'The seal', contentType: format === 'png' ? 'image/png' : 'image/svg+xml' },
      404: { description: 'No seal (onboarding not completed automatically)', schema: teamFail },
      422: { description: 'Malformed id', schema: validationFailure },
    },
    handler: async (ctx, { params }) => {
      const seal = await team.seal(principalOf(ctx).accountId, params.id);
      ctx.type = format === 'png' ? 'image/png' : 'image/svg+xml';
      ctx.body = format === 'png' ? seal.png : seal.svg;
    },
  };
}

export function registerTeamRoutes(api: ApiRoutes, team: TeamService): void {
  for (const path of ['/team_members/invite', '/team_members']) api.add(inviteRoute(path, team));

  api.add(listTeamMembersRoute(team));

  api.add(getTeamMemberRoute(team));

  for (const format of ['png', 'svg'] as const) api.add(sealRoute(format, team));

  api.add(unlinkTeamMemberRoute(team));

  api.add(createLoginLinkRoute(team));
}
