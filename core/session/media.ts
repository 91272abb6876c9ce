/**
 * The live act's media, as the session judges it: who is in the room (by the media server's own events)
 * and whether the act is being recorded. Rooms are numbered by segment: a media server that restarts
 * loses its rooms, and the session opens the next segment's.
 */

/** Who is in a room: the notary, or a participant by role and index (`signer-0`, `witness-1`). */
export type MediaIdentity = 'notary' | `signer-${number}` | `witness-${number}`;

const IDENTITY = /^(notary|signer-\d{1,2}|witness-\d{1,2})$/;

export const isMediaIdentity = (value: unknown): value is MediaIdentity =>
  typeof value === 'string' && IDENTITY.test(value);

/** A media server's event about one room of the session: a participant's streams began, or ended. */
export interface MediaEvent {
  segment: number;
  identity: MediaIdentity;
  kind: 'published' | 'unpublished';
  /** When the media server saw it (ISO 8601). */
  at: string;
}

export const isMediaEvent = (value: unknown): value is MediaEvent => {
  const event = value as MediaEvent | null;
  return (
    typeof event === 'object' &&
    event !== null &&
    Number.isInteger(event.segment) &&
    event.segment > 0 &&
    isMediaIdentity(event.identity) &&
    (event.kind === 'published' || event.kind === 'unpublished') &&
    typeof event.at === 'string'
  );
};

/** The role and index an identity names, as events and the certificate speak of participants. */
export function participantOf(identity: MediaIdentity): {
  role: 'notary' | 'signer' | 'witness';
  index: number | null;
} {
  if (identity === 'notary') return { role: 'notary', index: null };
  const [role, index] = identity.split('-');
  return { role: role as 'signer' | 'witness', index: Number(index) };
}

/**
 * The act is being recorded while its room is open (the media server records every stream in it) and
 * the notary and at least one signer are on camera in it: a room with nobody in it records nothing.
 */
export function actIsRecorded(roomOpen: boolean, publishing: readonly MediaIdentity[]): boolean {
  return roomOpen && publishing.includes('notary') && publishing.some((who) => who.startsWith('signer-'));
}
