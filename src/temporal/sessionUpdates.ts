import crypto from 'node:crypto';
import { WorkflowUpdateFailedError, type WorkflowUpdateOptions } from '@temporalio/client';
import { ApplicationFailure, WorkflowNotFoundError, type UpdateDefinition } from '@temporalio/common';
import type { TemporalHandle } from './client';
import { conflict, DomainError, unavailable, UNAVAILABLE_MESSAGE } from '../domain/errors';
import { errorOfRefusal } from '../domain/refusals';
import { isUnavailable, updateNotProcessed, workflowNotReady } from '../outages';
import { ALREADY_DONE, REFUSED, type Refusal } from '../../core/session/messages';

/** How long a request waits on the session's answer before it answers 503; the same for every update. */
export const SESSION_UPDATE_DEADLINE_MS = 15_000;
export const SESSION_UNREACHABLE = 'The session could not be reached in time; retry the request';
export const SESSION_ENDED = 'Session has ended';

/** What the session's workflow made of an update. */
export type SessionAnswer<Ret> =
  | { outcome: 'applied'; result: Ret }
  /** The validator found it done already: a retry whose first answer was lost. */
  | { outcome: 'already_done' }
  | { outcome: 'refused'; refusal: Refusal }
  /** The workflow has closed: the session ended (or an operator stopped it) since its row was read. */
  | { outcome: 'closed' };

/**
 * Sends an update to a session's workflow and answers what came of it. Temporal out of reach until the
 * deadline is the one error: 503 with SESSION_UNREACHABLE; anything else unforeseen is thrown as it is.
 */
export async function updateSession<Ret, Args extends unknown[]>(
  temporal: TemporalHandle,
  workflowId: string,
  update: UpdateDefinition<Ret, Args>,
  args: Args,
): Promise<SessionAnswer<Ret>> {
  try {
    const deadline = Date.now() + SESSION_UPDATE_DEADLINE_MS;
    return { outcome: 'applied', result: await executeUpdate(temporal, workflowId, update, args, deadline) };
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
      if (err.cause.type === ALREADY_DONE) return { outcome: 'already_done' };
      if (err.cause.type === REFUSED)
        return { outcome: 'refused', refusal: err.cause.details?.[0] as Refusal };
    }
    if (err instanceof WorkflowNotFoundError) return { outcome: 'closed' };
    if (isUnavailable(err)) throw unavailable(SESSION_UNREACHABLE);
    throw err;
  }
}

/** What an answer other than the update's application means to the caller: a retry passes, the rest is an error. */
export function throwUnlessDone(answer: SessionAnswer<unknown>): void {
  if (answer.outcome === 'refused') throw errorOfRefusal(answer.refusal);
  if (answer.outcome === 'closed') throw conflict(SESSION_ENDED);
}

/** Thrown inside a database transaction whose update was not applied, so that nothing of it is kept. */
export class UpdateNotApplied extends Error {
  constructor(readonly answer: Exclude<SessionAnswer<unknown>, { outcome: 'applied' }>) {
    super(`session update ${answer.outcome}`);
  }
}

/** The update's result; any other answer rolls the transaction it runs in back (UpdateNotApplied). */
export function appliedOrRollBack<Ret>(answer: SessionAnswer<Ret>): Ret {
  if (answer.outcome !== 'applied') throw new UpdateNotApplied(answer);
  return answer.result;
}

/**
 * What a database transaction that carried an update failed with, to the caller: the session's answer (a
 * retry passes), a domain error as it is, 503 for PostgreSQL out of reach; anything else is thrown.
 */
export function answerFailedTransaction(err: unknown): void {
  if (err instanceof UpdateNotApplied) return throwUnlessDone(err.answer);
  if (err instanceof DomainError) throw err;
  if (isUnavailable(err)) throw unavailable(UNAVAILABLE_MESSAGE);
  throw err;
}

// The server runs a workflow task of its own right after the failed one; an update sent again while that
// task runs is held until it ends, far longer than one sent a moment after it.
const FIRST_PAUSE_MS = 100;
const LONGEST_PAUSE_MS = 400;

/**
 * Runs an update of a workflow to its result by `deadline` (epoch ms). An update aborted before it was
 * accepted (workflowNotReady), or left unprocessed by the worker (updateNotProcessed), is sent again under
 * the same update id, so it is applied at most once.
 */
async function executeUpdate<Ret, Args extends unknown[]>(
  temporal: TemporalHandle,
  workflowId: string,
  update: UpdateDefinition<Ret, Args>,
  args: Args,
  deadline: number,
): Promise<Ret> {
  const handle = temporal.client.workflow.getHandle(workflowId);
  // The SDK's overloads tell updates with and without arguments apart; one signature serves both here.
  const send = handle.executeUpdate.bind(handle) as (
    def: UpdateDefinition<Ret, Args>,
    options: WorkflowUpdateOptions & { args: Args },
  ) => Promise<Ret>;
  const updateId = crypto.randomUUID();
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    try {
      return await temporal.connection.withDeadline(deadline, () => send(update, { args, updateId }));
    } catch (err) {
      const notTaken = workflowNotReady(err) || updateNotProcessed(err);
      if (!notTaken || Date.now() + pause >= deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
