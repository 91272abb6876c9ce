import { gone } from '../domain/errors';
import { throwIfRefused } from '../domain/refusals';
import type { ParticipantRecord } from '../reads/participantLookup';
import { judgeLinkOpen } from '../../core/session/machine';
import { isFinal } from '../../core/session/statuses';
import type { CompletionLinks } from './completionLinks';

/**
 * Whether a participant's link is still valid and opens its session now: the one owner the journey, the
 * signing routes and the room ask. A link of an ended session is 410, with the completion page's link
 * for a completed one; before its session opens it is 409 with when.
 */
export class LinkValidity {
  constructor(private readonly completionLinks: CompletionLinks) {}

  /** Throws for a session that has ended: its pages show the rest (a scheduled session's, say). */
  assertNotEnded(participant: ParticipantRecord): void {
    const { status, session_id: sessionId, notarization_id: reference, cancelled_by: by } = participant;
    if (!isFinal(status)) return;
    throw gone(`This signing link is no longer valid: the session is ${status}`, {
      status,
      ...(status === 'completed'
        ? { completion_url: this.completionLinks.create(sessionId, reference) }
        : {}),
      ...(by ? { cancelled_by: by } : {}),
    });
  }

  /** Throws unless the session is open to its participants now. */
  assertOpen(participant: ParticipantRecord, now = Date.now()): void {
    this.assertNotEnded(participant);
    const opensAt = participant.session_timing ? new Date(participant.session_timing).getTime() : undefined;
    throwIfRefused(judgeLinkOpen(participant.status, opensAt, now));
  }
}
