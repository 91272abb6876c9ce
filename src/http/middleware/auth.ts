import type { Next } from 'koa';
import type { Authenticator } from '../../auth/authenticator';
import { credentialOf } from '../../auth/authenticator';
import type { ApiKey, KeyKind } from '../../auth/keyStore';
import { notFound, unauthenticated } from '../../domain/errors';
import type { AppContext, Principal } from '../context';

const principalOfKey = (key: ApiKey): Principal => ({
  accountId: key.accountId,
  kind: key.kind,
  keyId: key.id,
  whiteLabelBaseUrl: key.whiteLabelBaseUrl,
  testMode: key.testMode,
});

/** Session routes take the account's API key, team routes its vendor key; the other kind is a 401. */
export function requireKey(authenticator: Authenticator, kind: KeyKind) {
  return async (ctx: AppContext, next: Next) => {
    const credential = credentialOf(ctx.get('authorization'));
    const key = credential ? await authenticator.keyFor(credential, kind) : null;
    if (!key) throw unauthenticated();
    ctx.state.principal = principalOfKey(key);
    await next();
  };
}

/**
 * Notary actions: the account's API key (or a token minted from it), a team member's token from a
 * login-link sign-in, or a network notary's token; what each may do is decided per session.
 */
export function requireSessionActor(authenticator: Authenticator) {
  return async (ctx: AppContext, next: Next) => {
    const credential = credentialOf(ctx.get('authorization'));
    if (credential) {
      const key = await authenticator.keyFor(credential, 'api');
      if (key) {
        ctx.state.principal = principalOfKey(key);
        return next();
      }
      if (await signInTeamMember(authenticator, ctx, credential)) return next();
      if (await signInNetworkPerson(authenticator, ctx, credential, 'notary')) return next();
    }
    throw unauthenticated();
  };
}

/**
 * Routes where a notary or witness acts for themself (`/me/...`): a team member's token or a network
 * person's token.
 */
export function requirePerson(authenticator: Authenticator) {
  return async (ctx: AppContext, next: Next) => {
    const credential = credentialOf(ctx.get('authorization'));
    if (
      !credential ||
      !(
        (await signInTeamMember(authenticator, ctx, credential)) ||
        (await signInNetworkPerson(authenticator, ctx, credential))
      )
    )
      throw unauthenticated();
    await next();
  };
}

async function signInNetworkPerson(
  authenticator: Authenticator,
  ctx: AppContext,
  credential: string,
  role?: 'notary' | 'witness',
) {
  const person = await authenticator.networkPersonFor(credential);
  if (!person || (role && person.role !== role)) return false;
  ctx.state.networkPerson = { id: person.personId, role: person.role };
  ctx.state.signInId = person.signInId;
  return true;
}

/** Routes where a team member acts for themself: their access token only. */
export function requireTeamMember(authenticator: Authenticator) {
  return async (ctx: AppContext, next: Next) => {
    const credential = credentialOf(ctx.get('authorization'));
    if (!credential || !(await signInTeamMember(authenticator, ctx, credential))) throw unauthenticated();
    await next();
  };
}

async function signInTeamMember(authenticator: Authenticator, ctx: AppContext, credential: string) {
  const member = await authenticator.teamMemberFor(credential);
  if (!member) return false;
  ctx.state.principal = {
    accountId: member.accountId,
    kind: 'team_member',
    keyId: member.memberId,
    member: { id: member.memberId, role: member.role },
  };
  ctx.state.signInId = member.signInId;
  return true;
}

/**
 * A `/sign/{token}/…` route: the link must belong to a participant before anything else of the request
 * is read, so a stranger's large body costs a lookup, not a parse.
 */
export function requireSigningLink(authenticator: Authenticator) {
  return async (ctx: AppContext, next: Next) => {
    if (!(await authenticator.signingLinkExists(ctx.params.token ?? '')))
      throw notFound('Signing link not found');
    await next();
  };
}
