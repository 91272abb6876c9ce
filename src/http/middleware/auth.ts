import type { Next } from 'koa';
import type { Authenticator } from '../../auth/authenticator';
import { credentialOf } from '../../auth/authenticator';
import type { KeyKind } from '../../db/models';
import { unauthorized } from '../errors';
import type { AppContext } from '../context';

/** Session routes take the account's API key, team routes its vendor key; the other kind is a 401. */
export function requireKey(authenticator: Authenticator, kind: KeyKind) {
  return async (ctx: AppContext, next: Next) => {
    const credential = credentialOf(ctx.get('authorization'));
    const key = credential ? await authenticator.keyFor(credential, kind) : null;
    if (!key) throw unauthorized();
    ctx.state.principal = { accountId: key.accountId, kind: key.kind, keyId: key.id };
    await next();
  };
}
