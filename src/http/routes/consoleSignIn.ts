import Joi from 'joi';
import type { Sequelize } from 'sequelize';
import type { TokenService } from '../../auth/tokens';
import { signInEnd, signOut } from '../../auth/consoleSignIns';
import { unauthenticated } from '../../domain/errors';
import { failBodySchema } from '../openapi/document';
import { signInOf } from '../context';
import type { ApiRoutes, RouteDefinition } from '../routeTable';

const signedOut = { description: 'Not signed in, or the sign-in has ended', schema: failBodySchema };

/** An access token of a console sign-in, as the login and each renewal answer it. */
export const grantFields = {
  access_token: Joi.string(),
  token_type: Joi.string().valid('Bearer'),
  expires_in: Joi.number().integer(),
  sign_in_ends_at: Joi.string().isoDate().description('When the console sign-in ends: sign in again after'),
};

export const grantOf = (tokens: TokenService, endsAt: Date, accessToken: string) => ({
  access_token: accessToken,
  token_type: 'Bearer',
  expires_in: Math.min(tokens.accessTokenTtlSeconds, Math.ceil((endsAt.getTime() - Date.now()) / 1000)),
  sign_in_ends_at: endsAt.toISOString(),
});

/** The next access token of the caller's console sign-in, while it lasts. */
function renewRoute(tokens: TokenService, sequelize: Sequelize): RouteDefinition<unknown> {
  return {
    method: 'post',
    path: '/auth/console/renew',
    operationId: 'renewConsoleSignIn',
    summary: 'The next access token of a notary console sign-in',
    description:
      'The console calls it while in use, before its token expires (ACCESS_TOKEN_TTL_SECONDS): a working day ' +
      'needs no second login link. Past `sign_in_ends_at`, or after a sign-out, 401: open a login link again.',
    tags: ['Login links', 'Authentication'],
    auth: 'person',
    body: Joi.object({}).unknown(true),
    responses: {
      200: {
        description: 'A fresh token of the same sign-in',
        schema: Joi.object(grantFields),
      },
      401: signedOut,
    },
    handler: async (ctx) => {
      const signInId = signInOf(ctx);
      const endsAt = await signInEnd(sequelize, signInId);
      if (!endsAt) throw unauthenticated();
      const person = ctx.state.networkPerson;
      const member = ctx.state.principal;
      const access_token = person
        ? await tokens.mintNetworkToken({ personId: person.id, role: person.role, signInId })
        : await tokens.mintTeamMemberToken({
            accountId: member!.accountId,
            memberId: member!.member!.id,
            role: member!.member!.role,
            signInId,
          });
      ctx.body = grantOf(tokens, endsAt, access_token);
    },
  };
}

/** Ends the caller's console sign-in: every token of it is refused from then on. */
function signOutRoute(sequelize: Sequelize): RouteDefinition<unknown> {
  return {
    method: 'post',
    path: '/auth/console/sign_out',
    operationId: 'signOutOfConsole',
    summary: 'Sign out of the notary console',
    description: 'Ends the sign-in at once: its tokens, the one in hand among them, answer 401 from now on.',
    tags: ['Login links', 'Authentication'],
    auth: 'person',
    body: Joi.object({}).unknown(true),
    responses: {
      200: { description: 'Signed out', schema: Joi.object({ response: Joi.string().valid('Pass') }) },
      401: signedOut,
    },
    handler: async (ctx) => {
      await signOut(sequelize, signInOf(ctx));
      ctx.body = { response: 'Pass' };
    },
  };
}

export function registerConsoleSignInRoutes(
  api: ApiRoutes,
  tokens: TokenService,
  sequelize: Sequelize,
): void {
  api.add(renewRoute(tokens, sequelize));
  api.add(signOutRoute(sequelize));
}
