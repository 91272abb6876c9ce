import { refused } from '../../domain/errors';
import { failBodySchema } from '../openapi/document';
import type { SessionService } from '../../sessions/sessionService';
import { actorOf, principalOf, type AppContext } from '../context';

/**
 * A session as the account's key, an admin or the session's own notary (team or network) reaches it;
 * another member is refused with `refusal`, another network notary finds no such session.
 */
export async function sessionOfItsNotary(
  ctx: AppContext,
  sessions: SessionService,
  id: string,
  refusal: string,
) {
  const actor = actorOf(ctx);
  if (actor.kind === 'network_notary') return sessions.findRowForNetworkNotary(actor.notaryId, id);
  const session = await sessions.findRow(principalOf(ctx).accountId, id);
  if (actor.kind === 'member' && actor.role !== 'admin' && session.notary_member_id !== actor.memberId)
    throw refused(refusal);
  return session;
}

/** The 403 of a route that `sessionOfItsNotary` guards. */
export const NOT_THE_SESSIONS_NOTARY = {
  description: 'A team member who is not the session’s notary or an admin',
  schema: failBodySchema,
};
