import { condition, upsertSearchAttributes } from '@temporalio/workflow';
import type {
  ActionResult,
  BouncedMail,
  DocumentsStatus,
  IdentityOutcome,
  NetworkWitness,
  NotaryAtTheAct,
  ParticipantKey,
  ParticipantRef,
  SessionSnapshot,
  SessionStatus,
  CancelledBy,
} from '../core/session/messages';
import type { ResumedSession } from '../core/session/workflowInput';
import { type SessionState } from '../core/session/machine';
import { assertDocumentsTransition, assertTransition } from '../core/session/statuses';
import type { DatabaseSteps } from './sessionActivities';
import { SessionStatusAttribute } from '../core/temporal/searchAttributes';
import type { EventArgs, EventData, EventName } from '../core/session/events';
import { dataOf, SessionEvents } from './sessionEvents';
import { SessionSigning } from './sessionSigning';
import { witnessChanges } from '../core/session/networkWitnesses';
import {
  actIsRecorded,
  applyMediaEvent,
  emptyPresence,
  onCameraIn,
  participantOf,
  type MediaEvent,
  type MediaIdentity,
} from '../core/session/media';

/**
 * A running session's state and the workflow's ways of changing it: entering a state (recorded in the
 * database and, when it changes, the search attribute), its events, and waiting. The main flow and the
 * message handlers share it; the rules of what may change when live in the session machine.
 */
export class SessionRun {
  documentsStatus: DocumentsStatus = 'pending';
  notaryAssigned = false;
  readonly joined: ParticipantRef[] = [];
  readonly verified: ParticipantKey[] = [];
  readonly recordedChecks: string[] = [];
  /** The network witnesses announced in the session's places. */
  readonly networkWitnesses: NetworkWitness[] = [];
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
    cancelReason: undefined as string | undefined,
    cancelledBy: undefined as CancelledBy | undefined,
    /** The network notary who declined the open offer. */
    declinedBy: undefined as string | undefined,
    retryFinalization: false,
    /** A network witness of the session left the network: their place is to be staffed again. */
    witnessLeft: false,
    /** The network notary who left the network last: no offer to them stays open, nor do they stay assigned. */
    notaryLeft: undefined as string | undefined,
    /** A network notary became free since the session last asked for one. */
    notaryFree: false,
  };
  /** A live act's room: its segment, whether it is open, and who is on camera in it. */
  readonly media = { segment: 0, open: false, presence: emptyPresence() };
  readonly signing: SessionSigning;
  /** The notary whose commission the completion was judged by: the one the certificates state. */
  actNotary?: NotaryAtTheAct;
  readonly events: SessionEvents;
  /** When the notary completed the session (epoch ms, the workflow's time): the act's time. */
  private completedAt?: number;

  constructor(
    readonly db: DatabaseSteps,
    readonly sessionId: string,
    public status: SessionStatus,
    private readonly expiresAt: number | undefined,
    resumed: ResumedSession | undefined,
    /** The SessionStatus search attribute as the API started the workflow with it. */
    private statusAttribute: SessionStatus | undefined,
  ) {
    this.events = new SessionEvents(db, sessionId, resumed?.generation ?? 0, () => this.status);
    this.signing = new SessionSigning(this.events);
    if (resumed) {
      this.joined.push(...resumed.joined);
      this.verified.push(...resumed.verified);
      this.recordedChecks.push(...resumed.recordedChecks);
      this.networkWitnesses.push(...resumed.networkWitnesses);
      this.waitingSince = resumed.waitingSince;
    }
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
      recordingRunning: actIsRecorded(this.media.open, this.onCamera()),
      onCamera: this.onCamera(),
      signing: this.signing.progress,
    };
  }

  snapshot(): SessionSnapshot {
    return {
      ...this.result(),
      notaryAssigned: this.notaryAssigned,
      joined: [...this.joined],
      offeredTo: this.openOffer?.notaryId,
    };
  }

  /** What a fresh run continued as new needs of this one. */
  handOver(): ResumedSession {
    return {
      joined: [...this.joined],
      waitingSince: this.waitingSince,
      verified: [...this.verified],
      recordedChecks: [...this.recordedChecks],
      networkWitnesses: [...this.networkWitnesses],
      generation: this.events.generation + 1,
    };
  }

  expired(): boolean {
    return this.expiresAt !== undefined && Date.now() >= this.expiresAt;
  }

  /** Cancelled, or past its expiry: the main flow stops where it is. */
  ended(): boolean {
    return this.requested.cancel || this.expired();
  }

  recordJoin(participant: ParticipantRef): void {
    if (this.joined.some((p) => p.role === participant.role && p.index === participant.index)) return;
    const { role, index, email } = participant;
    this.joined.push({ role, index, email });
    this.events.queue('join_session', { role, index, email });
  }

  /**
   * The network witnesses in the session's places now: each new one is announced; where one left, their
   * join and identity check stop counting (but a join the new witness already made).
   */
  staffWitnesses(now: NetworkWitness[]): void {
    const { assigned, vacated } = witnessChanges(this.networkWitnesses, now);
    for (const gone of vacated) {
      const leftBehind = (p: ParticipantKey) => p.role === 'witness' && p.index === gone.index;
      removeWhere(this.joined, (p) => leftBehind(p) && p.email === gone.email);
      removeWhere(this.verified, leftBehind);
    }
    this.networkWitnesses.splice(0, this.networkWitnesses.length, ...now);
    for (const witness of assigned) this.events.queue('witness_assigned', { role: 'witness', ...witness });
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
      this.events.queue('identity_verified', { ...who, method, attempt });
      return;
    }
    this.events.queue(method === 'kba' ? 'kba_failed' : 'id_check_failed', {
      ...who,
      attempt,
      ...(method === 'kba' ? { correct: check.correct, total: check.total } : {}),
      reasons: check.reasons,
      ...(check.retakeUntil ? { retake_until: check.retakeUntil } : {}),
    });
    if (check.lockedUntil)
      this.events.queue('participant_locked_out', { ...who, method, locked_until: check.lockedUntil });
  }

  /** The media server's word on who is on camera in the room now open: a change of someone's presence. */
  recordMedia(event: MediaEvent): void {
    const change = applyMediaEvent(this.media.presence, event);
    if (!change) return;
    const who = { ...participantOf(event.identity), segment: event.segment, at: event.at };
    this.events.queue(change === 'arrived' ? 'participant_connected' : 'participant_disconnected', who);
  }

  private onCamera(): MediaIdentity[] {
    return this.media.open ? onCameraIn(this.media.presence) : [];
  }

  /** Whether a media event is about the room open now (the media server may report a lost one's late). */
  mediaEventIsCurrent(event: MediaEvent): boolean {
    return this.media.open && event.segment === this.media.segment;
  }

  reportBounces(bounced: BouncedMail[]): void {
    for (const mail of bounced) this.events.queue('email_bounced', { ...mail });
  }

  async enter(next: SessionStatus): Promise<void>;
  async enter<E extends EventName>(next: SessionStatus, event: E, ...data: EventArgs<E>): Promise<void>;
  async enter(next: SessionStatus, event?: EventName, ...data: [EventData[EventName]?]): Promise<void> {
    assertTransition(this.status, next);
    this.status = next;
    if (next === 'completed') this.completedAt = Date.now();
    if (next !== this.statusAttribute) {
      upsertSearchAttributes([{ key: SessionStatusAttribute, value: next }]);
      this.statusAttribute = next;
    }
    await this.record();
    if (event) await this.events.deliver(event, dataOf(data));
  }

  /** A cancel asked for: the first asker's name and reason are the ones the session keeps. */
  requestCancel(by: CancelledBy, reason?: string): void {
    this.requested.cancel = true;
    this.requested.cancelReason ??= reason;
    this.requested.cancelledBy ??= by;
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
      const wake = () => ready() || this.requested.cancel || this.events.waiting;
      const remaining = deadline - Date.now();
      const woke =
        deadline === Infinity
          ? (await condition(wake), true)
          : remaining > 0 && (await condition(wake, remaining));
      await this.events.flush();
      if (this.requested.cancel) return false;
      if (ready()) return true;
      if (!woke) return false;
    }
  }

  /** Waits for `ready()` while publishing queued events; only for steps past the session's expiry. */
  async waitUntil(ready: () => boolean): Promise<void> {
    for (;;) {
      await this.events.flush();
      if (ready()) return;
      await condition(() => ready() || this.events.waiting);
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

function removeWhere<T>(list: T[], drop: (item: T) => boolean): void {
  for (let i = list.length - 1; i >= 0; i--) if (drop(list[i])) list.splice(i, 1);
}
