import Joi from 'joi';
import type { Authenticator } from '../../auth/authenticator';
import { InvalidTokenError, type TokenService } from '../../auth/tokens';
import { unauthenticated } from '../../domain/errors';
import type { ApiRoutes } from '../routeTable';
import { failBodySchema } from '../openapi/document';

type RefreshBody = { api_key: string } | { refresh_token: string };

const refreshBody = Joi.object<RefreshBody>({
  api_key: Joi.string().max(4096).description('An API key or vendor key: starts a new refresh-token family.'),
  refresh_token: Joi.string()
    .max(200)
    .description('The latest refresh token of a family: spent by this call.'),
})
  .xor('api_key', 'refresh_token')
  .label('RefreshRequest');

const tokenPair = Joi.object({
  access_token: Joi.string().required().description('JWT; accepted wherever the key that minted it is.'),
  token_type: Joi.string().valid('Bearer').required(),
  expires_in: Joi.number().integer().required().description('Seconds until the access token expires.'),
  refresh_token: Joi.string().required().description('Single use; shown once.'),
}).label('TokenPair');

export function registerAuthRoutes(api: ApiRoutes, authenticator: Authenticator, tokens: TokenService): void {
  api.add<RefreshBody>({
    method: 'post',
    path: '/auth/refresh',
    rateLimit: 'credentials',
    operationId: 'refreshToken',
    summary: 'Exchange a key for an access token, or a refresh token for a new pair',
    description:
      'With `api_key`: a new access token and the first refresh token of a new family. With `refresh_token`: ' +
      'that token is spent and a new pair issued. Presenting a spent refresh token again is treated as theft: ' +
      '401, and every token of its family is revoked. Rotating the key revokes its tokens too.',
    tags: ['Authentication'],
    auth: 'none',
    body: refreshBody,
    responses: {
      200: { description: 'A new token pair', schema: tokenPair },
      400: { description: 'Neither or both of api_key and refresh_token', schema: failBodySchema },
      401: { description: 'Unknown, revoked, expired or reused credential', schema: failBodySchema },
    },
    handler: async (ctx, { body }) => {
      if ('api_key' in body) {
        const key = await authenticator.anyKey(body.api_key);
        if (!key) throw unauthenticated();
        ctx.body = await tokens.issuePair(key);
        return;
      }
      try {
        ctx.body = await tokens.refresh(body.refresh_token);
      } catch (err) {
        if (err instanceof InvalidTokenError) throw unauthenticated();
        throw err;
      }
    },
  });
}
