import type { RouterContext } from '@koa/router';
import type { Logger } from '../logger';
import type { KeyKind } from '../db/models';

export interface Principal {
  accountId: string;
  kind: KeyKind | 'team_member';
  /** The API key's id, or the team member's id for a team-member token. */
  keyId: string;
  /** Set for team members signed in through a login link. */
  member?: { id: string; role: 'notary' | 'pretagger' | 'admin' };
}

export interface AppState {
  requestId: string;
  log: Logger;
  principal?: Principal;
  /** SHA-256 of the raw request body, for idempotency keys. */
  bodySha256?: string;
}

export type AppContext = RouterContext<AppState> & {
  request: { body?: unknown };
};

/** The authenticated caller; routes behind `requireKey` always have one. */
export function principalOf(ctx: AppContext): Principal {
  if (!ctx.state.principal) throw new Error('route is missing its authentication middleware');
  return ctx.state.principal;
}
