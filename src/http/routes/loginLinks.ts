import { API_PREFIX } from '../../publicPaths';
import Joi from 'joi';
import type { Sequelize } from 'sequelize';
import { networkPersonForLoginLink } from '../../network/networkPeople';
import type { TeamService } from '../../team/teamService';
import { presentMember } from '../../team/members';
import type { TokenService } from '../../auth/tokens';
import { failBodySchema } from '../openapi/document';
import { unauthenticated } from '../../domain/errors';
import { escapeHtml, page } from '../html';
import { openSignIn } from '../../auth/consoleSignIns';
import { grantFields, grantOf, registerConsoleSignInRoutes } from './consoleSignIn';
import type { ApiRoutes, RouteDefinition } from '../routeTable';

interface LoginBody {
  login_link_id: string;
  key: string;
}

/** The auto-login page posts the link back to the API and shows who is signed in. */
function autoLoginPage(linkId: string, key: string): string {
  // `<` escaped so the JSON cannot close the script element it sits in.
  const link = JSON.stringify({ login_link_id: linkId, key }).replace(/</g, '\\u003c');
  return page(
    'Signing in',
    `<h1>Signing in</h1><p id="status" role="status" data-state="pending" data-path="${API_PREFIX}/auth/login_link">Verifying your login link${escapeHtml('…')}</p>
<p id="console" hidden><a href="/notary">Open your sessions now</a></p>
<script type="application/json" id="login-link">${link}</script>
<script src="/assets/auto-login.js"></script>`,
  );
}

/** The page a login link opens: it verifies the link and signs the member in automatically */
function autoLoginPageRoute(): RouteDefinition<unknown, { key: string }, { id: string }> {
  return {
    method: 'get',
    path: '/auto/{id}',
    rateLimit: 'link',
    operationId: 'autoLoginPage',
    summary: 'The page a login link opens: it verifies the link and signs the member in automatically',
    tags: ['Login links'],
    auth: 'none',
    params: Joi.object({ id: Joi.string().max(100) }),
    query: Joi.object({ key: Joi.string().max(200).required() }),
    responses: {
      200: { description: 'HTML page', contentType: 'text/html' },
      400: { description: 'No key', schema: failBodySchema },
    },
    handler: async (ctx, { params, query }) => {
      ctx.type = 'html';
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Referrer-Policy', 'no-referrer');
      ctx.body = autoLoginPage(params.id, query.key);
    },
  };
}

/** Exchange a login link for an access token (a team member, or a network notary or witness) */
function loginWithLinkRoute(
  team: TeamService,
  tokens: TokenService,
  sequelize: Sequelize,
  signInSeconds: number,
): RouteDefinition<LoginBody> {
  return {
    method: 'post',
    path: '/auth/login_link',
    rateLimit: 'credentials',
    operationId: 'loginWithLink',
    summary: 'Exchange a login link for an access token (a team member, or a network notary or witness)',
    description:
      'The token authorises notary actions within the member’s role. 401 for an unknown, wrong-key or expired link. ' +
      'It opens a console sign-in: `POST /auth/console/renew` issues the next token while the sign-in lasts ' +
      '(CONSOLE_SIGN_IN_SECONDS, a working day: 12 hours), `POST /auth/console/sign_out` ends it and every token of it.',
    tags: ['Login links', 'Authentication'],
    auth: 'none',
    body: Joi.object({
      login_link_id: Joi.string().max(100).required(),
      key: Joi.string().max(200).required(),
    }),
    responses: {
      200: {
        description: 'Signed in',
        schema: Joi.object({
          ...grantFields,
          team_member: Joi.object().unknown(true).description('For a team member’s link'),
          network_member: Joi.object({
            id: Joi.string().guid(),
            email: Joi.string(),
            name: Joi.string(),
            role: Joi.string().valid('notary', 'witness'),
          }).description('For a network notary’s or witness’s link (admin CLI `network-login-link`)'),
        }),
      },
      401: { description: 'Unknown, wrong key or expired', schema: failBodySchema },
    },
    handler: async (ctx, { body }) => {
      const member = await team.memberForLoginLink(body.login_link_id, body.key);
      if (!member || !member.business_role) {
        const person = await networkPersonForLoginLink(sequelize, body.login_link_id, body.key);
        if (!person) throw unauthenticated();
        const signIn = await openSignIn(sequelize, person.id, signInSeconds);
        const token = await tokens.mintNetworkToken({
          personId: person.id,
          role: person.role,
          signInId: signIn.id,
        });
        ctx.body = { ...grantOf(tokens, signIn.endsAt, token), network_member: person };
        return;
      }
      const signIn = await openSignIn(sequelize, member.id, signInSeconds);
      const token = await tokens.mintTeamMemberToken({
        accountId: member.account_id,
        memberId: member.id,
        role: member.business_role as 'notary' | 'pretagger' | 'admin',
        signInId: signIn.id,
      });
      ctx.body = { ...grantOf(tokens, signIn.endsAt, token), team_member: presentMember(member) };
    },
  };
}

export function registerLoginLinkRoutes(
  site: ApiRoutes,
  api: ApiRoutes,
  deps: { team: TeamService; tokens: TokenService; sequelize: Sequelize; signInSeconds: number },
): void {
  site.add(autoLoginPageRoute());

  api.add(loginWithLinkRoute(deps.team, deps.tokens, deps.sequelize, deps.signInSeconds));
  registerConsoleSignInRoutes(api, deps.tokens, deps.sequelize);
}
