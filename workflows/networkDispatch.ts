import { condition } from '@temporalio/workflow';
import { BEFORE_THE_ACT } from '../core/session/statuses';
import { signerIsWaiting } from '../core/session/machine';
import type { SessionPlan } from '../core/session/plan';
import type { SessionRun } from './sessionRun';
import type { EventNotary } from '../core/session/events';

export type DispatchOutcome = 'started' | 'ended' | 'continue_as_new';

/**
 * An on-demand session finds its notary: once its signer waits, it offers itself to one eligible network
 * notary at a time; an offer not accepted in time goes to the next notary, and a notary who accepts but
 * does not start in time is released and the session goes back to the queue (at once for a notary who
 * left the network). With no notary free it asks again after a while, or at once when told one became
 * free. With nobody waiting it asks nobody, so an idle session never holds a notary. Ends when the notary
 * has started the session, the session ended, or its history is long enough to continue as new (only
 * between offers).
 */
export async function dispatchToNetwork(
  run: SessionRun,
  plan: SessionPlan,
  sessionId: string,
  historyIsLong: () => boolean,
): Promise<DispatchOutcome> {
  const { requested } = run;
  const ended = () => run.ended();
  const state = plan.notary.kind === 'network' ? plan.notary.state : undefined;
  for (;;) {
    if (!(await run.waitFor(() => signerIsWaiting(run.state(), plan)))) return 'ended';
    run.waitingSince ??= Date.now();
    requested.notaryFree = false;
    const attempt = await run.db.offerToNetworkNotary({ sessionId, state });
    const { offer } = attempt;
    if (!offer) {
      await run.waitFor(() => requested.notaryFree, Date.now() + attempt.retryAfterMs);
      if (ended()) return 'ended';
      if (historyIsLong()) return 'continue_as_new';
      continue;
    }

    run.openOffer = { offerId: offer.offerId, notaryId: offer.notaryId };
    const left = () => requested.notaryLeft === offer.notaryId;
    const answered = await run.waitFor(
      () => requested.acceptedBy === offer.notaryId || requested.declinedBy === offer.notaryId || left(),
      Date.now() + attempt.offerTimeoutMs,
    );
    run.openOffer = undefined;
    const declined = requested.declinedBy === offer.notaryId;
    requested.declinedBy = undefined;
    if (!answered || declined || requested.acceptedBy !== offer.notaryId) {
      const outcome = ended() || left() ? 'withdrawn' : declined ? 'declined' : 'expired';
      await run.db.closeOffer({ offerId: offer.offerId, outcome });
      if (ended()) return 'ended';
      continue;
    }

    await run.db.acceptOffer({ offerId: offer.offerId, sessionId });
    run.notaryAssigned = true;
    const notary: EventNotary = { email: offer.email, name: offer.name, source: 'network' };
    await run.enter('ready', 'notary_assigned', { notary });
    // Set once the session is recorded ready: the accept's answer waits for it.
    run.networkNotaryId = offer.notaryId;
    const woke = await run.waitFor(() => requested.start || left(), Date.now() + attempt.startTimeoutMs);
    if (woke && requested.start) return 'started';
    if (ended()) return 'ended';

    await run.db.releaseNetworkNotary({ offerId: offer.offerId, sessionId });
    run.networkNotaryId = undefined;
    run.notaryAssigned = false;
    requested.acceptedBy = undefined;
    await run.enter('awaiting_notary', 'notary_released', { notary });
  }
}

/** A named team notary: known at creation, recorded and announced when the session opens. */
export async function assignTeamNotary(run: SessionRun, sessionId: string, memberId: string): Promise<void> {
  const { notary } = await run.db.assignTeamNotary({ sessionId, memberId });
  run.notaryAssigned = true;
  await run.enter('ready', 'notary_assigned', { notary });
}

/**
 * Fills the session's places for network witnesses once its signer waits, asking again while too few
 * are free, and again whenever one of them leaves the network, until the act begins. Runs beside the
 * main flow; `busy` lets the flow continue as new only between attempts.
 */
export function staffNetworkWitnesses(run: SessionRun, plan: SessionPlan, sessionId: string, count: number) {
  const status = { busy: false };
  const actBegun = () => !BEFORE_THE_ACT.includes(run.status);
  void (async () => {
    await condition(() => signerIsWaiting(run.state(), plan) || actBegun());
    while (!actBegun()) {
      status.busy = true;
      run.requested.witnessLeft = false;
      const { witnesses, missing, retryAfterMs } = await run.db.assignNetworkWitnesses({ sessionId, count });
      run.staffWitnesses(witnesses);
      status.busy = false;
      const askAgain = () => run.requested.witnessLeft || actBegun();
      await (missing ? condition(askAgain, retryAfterMs) : condition(askAgain));
    }
  })();
  return status;
}
