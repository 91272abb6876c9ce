import type { RouterContext, RouterMiddleware } from '@koa/router';
import type { Logger } from '../logger';
import type { KeyKind } from '../auth/keyStore';
import type { BeforeCommit } from '../db/beforeCommit';
import { refused } from '../domain/errors';
import type { NetworkPerson, Worker } from '../auth/people';
import type { Actor } from '../../core/session/machine';

export interface Principal {
  accountId: string;
  kind: KeyKind | 'team_member';
  /** The API key's id, or the team member's id for a team-member token. */
  keyId: string;
  /** Set for team members signed in through a login link. */
  member?: { id: string; role: 'notary' | 'pretagger' | 'admin' };
  /** Set for the account's own keys: the base of the signing links its sessions hand out. */
  whiteLabelBaseUrl?: string | null;
  /** Set for the account's own keys: sessions it creates run in test mode. */
  testMode?: boolean;
}

export interface AppState {
  requestId: string;
  log: Logger;
  principal?: Principal;
  networkPerson?: NetworkPerson;
  /** The console sign-in of a team member's or network person's token. */
  signInId?: string;
  /** SHA-256 of the raw request body, when an Idempotency-Key will compare it. */
  bodySha256?: string;
  /** Set while a request holds an Idempotency-Key: stores its answer inside the service's transaction. */
  idempotency?: { answerWithin(status: number): BeforeCommit<unknown> };
}

declare module 'koa' {
  interface Request {
    /** The parsed JSON body, set by the `jsonBody` middleware on the routes that take one. */
    body?: unknown;
  }
}

export type AppContext = RouterContext<AppState>;
export type AppMiddleware = RouterMiddleware<AppState>;

/**
 * Where a route's work commits in one transaction, the answer kept for its Idempotency-Key is written in
 * it too, so a failure between the work and the stored answer cannot leave either without the other.
 */
export function idempotentAnswerWithin<T>(
  ctx: AppContext,
  status: number,
  shape: (value: T) => unknown,
): BeforeCommit<T> | undefined {
  const store = ctx.state.idempotency?.answerWithin(status);
  return store && ((value, transaction) => store(shape(value), transaction));
}

/** The signed-in network person of `role`; anyone else (a team member, the other role) is refused. */
export function networkPersonAs(ctx: AppContext, role: NetworkPerson['role']): NetworkPerson {
  const person = ctx.state.networkPerson;
  if (person?.role !== role) throw refused(`Only a network ${role} does this`);
  return person;
}

/** The authenticated caller; routes behind `requireKey` always have one. */
export function principalOf(ctx: AppContext): Principal {
  if (!ctx.state.principal) throw new Error('route is missing its authentication middleware');
  return ctx.state.principal;
}

/** The signed-in person as a worker of sessions: a network person, or a team member of an account. */
export function workerOf(ctx: AppContext): Worker {
  const person = ctx.state.networkPerson;
  if (person) return { kind: 'network', person };
  const { accountId, member } = ctx.state.principal!;
  return { kind: 'member', accountId, memberId: member!.id, role: member!.role };
}

/** The console sign-in of a signed-in person (login-link and network tokens carry one). */
export function signInOf(ctx: AppContext): string {
  if (!ctx.state.signInId) throw new Error('route is missing its authentication middleware');
  return ctx.state.signInId;
}

/**
 * Who acts: the account's key (or a token minted from it), a team member signed in with a login link,
 * or a network notary.
 */
export function actorOf(ctx: AppContext): Actor {
  const person = ctx.state.networkPerson;
  if (person) return { kind: 'network_notary', notaryId: person.id };
  const principal = principalOf(ctx);
  return principal.member
    ? { kind: 'member', role: principal.member.role, memberId: principal.member.id }
    : { kind: 'account' };
}
