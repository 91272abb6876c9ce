import { condition, sleep, upsertSearchAttributes } from '@temporalio/workflow';
import type {
  ActionResult,
  BouncedMail,
  DocumentsStatus,
  IdentityOutcome,
  NotaryAtTheAct,
  ParticipantKey,
  ParticipantRef,
  SessionStatus,
} from '../core/session/messages';
import { assertDocumentsTransition, assertTransition, type SessionState } from '../core/session/machine';
import type { DatabaseSteps } from './sessionActivities';
import { SessionStatusAttribute } from './searchAttributes';
import type { EventArgs, EventData, EventName } from '../core/session/events';
import { publishSessionEvent } from './publishing';

/** An event's data from its typed arguments: the one argument, or none for an event without data. */
const dataOf = (args: readonly unknown[]): EventData[EventName] => (args[0] ?? {}) as EventData[EventName];

/**
 * A running session's state and the workflow's ways of changing it: entering a state (recorded in
 * the database and the search attribute), publishing events, and waiting. The workflow's handlers
 * and main flow share it; the rules of what may change when live in the session machine.
 */
export class SessionRun {
  documentsStatus: DocumentsStatus = 'pending';
  notaryAssigned = false;
  readonly joined: ParticipantRef[] = [];
  readonly verified: ParticipantKey[] = [];
  readonly recordedChecks: string[] = [];
  /** The on-demand network: the offer open now, the notary who accepted, since when the signer waits. */
  openOffer?: { offerId: string; notaryId: string };
  networkNotaryId?: string;
  waitingSince?: number;
  readonly requested = {
    /** The network notary whose accept of the open offer arrived. */
    acceptedBy: undefined as string | undefined,
    pretagged: false,
    start: false,
    complete: false,
    release: false,
    cancel: false,
    retryFinalization: false,
  };
  /** When the notary completed the session (epoch ms, the workflow's time): the act's time. */
  private completedAt?: number;
  /** The notary whose commission the completion was judged by; absent from an older API's completion. */
  actNotary?: NotaryAtTheAct;
  /**
   * The SessionStatus search attribute as Temporal holds it, in runs that upsert it only when it changes
   * (each upsert is a visibility write); undefined in runs recorded before, which upsert every state entered.
   */
  statusAttribute?: SessionStatus;
  /** Handlers may not run activities; they queue events for the main flow to publish. */
  private readonly pendingEvents: Array<[EventName, EventData[EventName]]> = [];
  /** How many times this run published each event with each data: the occurrence in their ids. */
  private readonly published = new Map<string, number>();

  constructor(
    /** The workflow's database steps, for its other parts too (one choice per run, see databaseSteps). */
    readonly db: DatabaseSteps,
    private readonly sessionId: string,
    public status: SessionStatus,
    private readonly expiresAt: number | undefined,
    /** The run's place in its chain of runs continued as new. */
    readonly generation: number,
  ) {}

  /** What the session knew of its participants before it continued as new. */
  restoreParticipants(resumed: {
    joined: ParticipantRef[];
    verified?: ParticipantKey[];
    recordedChecks?: string[];
  }): void {
    this.joined.push(...resumed.joined);
    this.verified.push(...(resumed.verified ?? []));
    this.recordedChecks.push(...(resumed.recordedChecks ?? []));
  }

  result(): ActionResult {
    return { status: this.status, documentsStatus: this.documentsStatus };
  }

  state(): SessionState {
    return {
      status: this.status,
      documentsStatus: this.documentsStatus,
      joined: this.joined,
      verified: this.verified,
    };
  }

  expired(): boolean {
    return this.expiresAt !== undefined && Date.now() >= this.expiresAt;
  }

  recordJoin(participant: ParticipantRef): void {
    if (this.joined.some((p) => p.role === participant.role && p.index === participant.index)) return;
    const { role, index, email } = participant;
    this.joined.push({ role, index, email });
    this.queue('join_session', { role, index, email });
  }

  /** An identity check's outcome: a pass admits the participant; each outcome is reported as events. */
  recordIdentity(check: IdentityOutcome): void {
    if (this.recordedChecks.includes(check.checkId)) return;
    this.recordedChecks.push(check.checkId);
    const { role, index, email, method, attempt } = check;
    const who = { role, index, email };
    if (check.outcome === 'passed') {
      if (!this.verified.some((p) => p.role === role && p.index === index))
        this.verified.push({ role, index });
      this.queue('identity_verified', { ...who, method, attempt });
      return;
    }
    this.queue(method === 'kba' ? 'kba_failed' : 'id_check_failed', {
      ...who,
      attempt,
      ...(method === 'kba' ? { correct: check.correct, total: check.total } : {}),
      reasons: check.reasons,
      ...(check.retakeUntil ? { retake_until: check.retakeUntil } : {}),
    });
    if (check.lockedUntil)
      this.queue('participant_locked_out', { ...who, method, locked_until: check.lockedUntil });
  }

  queue<E extends EventName>(event: E, ...data: EventArgs<E>): void {
    this.pendingEvents.push([event, dataOf(data)]);
  }

  reportBounces(bounced: BouncedMail[]): void {
    for (const mail of bounced) this.queue('email_bounced', { ...mail });
  }

  async publish<E extends EventName>(event: E, ...data: EventArgs<E>): Promise<void> {
    await this.deliver(event, dataOf(data));
  }

  // Not async: one more promise on the publish's path would reorder recorded histories' commands.
  private deliver(event: EventName, data: EventData[EventName]): Promise<void> {
    const key = `${event}\n${JSON.stringify(data)}`;
    const nth = (this.published.get(key) ?? 0) + 1;
    this.published.set(key, nth);
    return publishSessionEvent(this.db, {
      sessionId: this.sessionId,
      status: this.status,
      event,
      data,
      occurrence: { generation: this.generation, nth },
    });
  }

  async flushEvents(): Promise<void> {
    while (this.pendingEvents.length) {
      const [event, data] = this.pendingEvents.shift()!;
      await this.deliver(event, data);
    }
  }

  /**
   * Publishes what is queued and commits it, once `settled()`, for the workflow to close right after.
   * Local steps run before their task is accepted, and Temporal rejects a task that closes the workflow
   * when new events arrived meanwhile (an activity's completion, an update): the task then runs again
   * with them and may take another path, while what the rejected one published (a webhook, a status, an
   * audit record) stands. A timer ends the task that published; the workflow closes in a later one, once
   * nothing more was queued and it is still settled.
   */
  async publishBeforeClosing(settled: () => boolean = () => true): Promise<void> {
    for (;;) {
      await condition(settled);
      await this.flushEvents();
      await sleep(1);
      if (settled() && !this.pendingEvents.length) return;
    }
  }

  async enter(next: SessionStatus): Promise<void>;
  async enter<E extends EventName>(next: SessionStatus, event: E, ...data: EventArgs<E>): Promise<void>;
  async enter(next: SessionStatus, event?: EventName, ...data: [EventData[EventName]?]): Promise<void> {
    assertTransition(this.status, next);
    this.status = next;
    if (next === 'completed') this.completedAt = Date.now();
    if (next !== this.statusAttribute) {
      upsertSearchAttributes([{ key: SessionStatusAttribute, value: next }]);
      if (this.statusAttribute !== undefined) this.statusAttribute = next;
    }
    await this.record();
    if (event) await this.deliver(event, dataOf(data));
  }

  async setDocuments(next: DocumentsStatus): Promise<void> {
    assertDocumentsTransition(this.documentsStatus, next);
    this.documentsStatus = next;
    await this.record();
  }

  /**
   * Waits for `ready()` while publishing queued events; false when the session was cancelled or reached
   * its expiry (or `until`) first.
   */
  async waitFor(ready: () => boolean, until?: number): Promise<boolean> {
    for (;;) {
      const deadline = Math.min(until ?? Infinity, this.expiresAt ?? Infinity);
      const wake = () => ready() || this.requested.cancel || this.pendingEvents.length > 0;
      const remaining = deadline - Date.now();
      const woke =
        deadline === Infinity
          ? (await condition(wake), true)
          : remaining > 0 && (await condition(wake, remaining));
      await this.flushEvents();
      if (this.requested.cancel) return false;
      if (ready()) return true;
      if (!woke) return false;
    }
  }

  /** Waits for `ready()` while publishing queued events; only for steps past the session's expiry. */
  async waitUntil(ready: () => boolean): Promise<void> {
    for (;;) {
      await this.flushEvents();
      if (ready()) return;
      await condition(() => ready() || this.pendingEvents.length > 0);
    }
  }

  private record(): Promise<void> {
    return this.db.recordStatus({
      sessionId: this.sessionId,
      status: this.status,
      documentsStatus: this.documentsStatus,
      ...(this.completedAt === undefined ? {} : { completedAt: new Date(this.completedAt).toISOString() }),
      ...(this.actNotary === undefined ? {} : { actNotary: this.actNotary }),
    });
  }
}
