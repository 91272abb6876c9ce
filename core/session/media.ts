import { signerOfKey } from './signing';

/**
 * The live act's media, as the session judges it: who is in the room (by the media server's own events)
 * and whether the act is being recorded. Rooms are numbered by segment: a media server that restarts
 * loses its rooms, and the session opens the next segment's.
 */

/** Janus room ids are strings here (`string_ids`): the session and the segment, readable in its files. */
export const roomNameOf = (sessionId: string, segment: number) => `${sessionId}.${segment}`;

/** The segment a room id of `roomNameOf`'s names; undefined for anything else. */
export function segmentOfRoom(room: unknown): number | undefined {
  const segment = Number(/\.(\d{1,9})$/.exec(String(room))?.[1]);
  return segment > 0 ? segment : undefined;
}

/** What is made from a recording's evidence after it is stored: the composed grid. */
export type RenditionKind = 'grid';

/** Who is in a room: the notary, or a participant by role and index (`signer-0`, `witness-1`). */
export type MediaIdentity = 'notary' | `signer-${number}` | `witness-${number}`;

const IDENTITY = /^(notary|signer-\d{1,2}|witness-\d{1,2})$/;

export const isMediaIdentity = (value: unknown): value is MediaIdentity =>
  typeof value === 'string' && IDENTITY.test(value);

/** A media server's event about one room of the session: a participant's streams began, or ended. */
export interface PublisherEvent {
  segment: number;
  identity: MediaIdentity;
  /** The publisher: one connection of the participant (`signer-0~nonce`); a reconnection is a new one. */
  feed: string;
  /** The media server's handle that publishes it (its media events name the handle, not the feed). */
  handle?: string;
  kind: 'published' | 'unpublished';
  /** When the media server saw it (ISO 8601). */
  at: string;
}

/** The media server starts or stops receiving a handle's audio or video (within a second of a change). */
export interface ReceivingEvent {
  segment: number;
  identity: MediaIdentity;
  handle: string;
  kind: 'receiving';
  media: 'audio' | 'video';
  receiving: boolean;
  at: string;
}

export type MediaEvent = PublisherEvent | ReceivingEvent;

const isPublisherEvent = (event: PublisherEvent) =>
  typeof event.feed === 'string' &&
  event.feed.startsWith(`${event.identity}~`) &&
  (event.handle === undefined || typeof event.handle === 'string') &&
  (event.kind === 'published' || event.kind === 'unpublished');

const isReceivingEvent = (event: ReceivingEvent) =>
  event.kind === 'receiving' &&
  typeof event.handle === 'string' &&
  (event.media === 'audio' || event.media === 'video') &&
  typeof event.receiving === 'boolean';

export const isMediaEvent = (value: unknown): value is MediaEvent => {
  const event = value as MediaEvent | null;
  return (
    typeof event === 'object' &&
    event !== null &&
    Number.isInteger(event.segment) &&
    event.segment > 0 &&
    isMediaIdentity(event.identity) &&
    typeof event.at === 'string' &&
    (event.kind === 'receiving' ? isReceivingEvent(event) : isPublisherEvent(event))
  );
};

/** The role and index an identity names, as events and the certificate speak of participants. */
export function participantOf(identity: MediaIdentity): {
  role: 'notary' | 'signer' | 'witness';
  index: number | null;
} {
  if (identity === 'notary') return { role: 'notary', index: null };
  return signerOfKey(identity);
}

/**
 * The act is being recorded while its room is open (the media server records every stream in it) and
 * the notary and at least one signer are on camera in it: a room with nobody in it records nothing.
 */
export function actIsRecorded(roomOpen: boolean, publishing: readonly MediaIdentity[]): boolean {
  return roomOpen && publishing.includes('notary') && publishing.some((who) => who.startsWith('signer-'));
}

/**
 * Who is on camera in the room open now, by the media server's own events: each feed published and not
 * yet unpublished, and what the media server receives of each handle (per medium, the latest by its
 * time). A feed that ended never comes back, so a late or repeated event of an earlier connection (a
 * reload's) never hides the connection that replaced it.
 */
export interface RoomPresence {
  feeds: Array<{ feed: string; identity: MediaIdentity; handle?: string; since: string }>;
  ended: string[];
  receiving: Array<{ handle: string; media: 'audio' | 'video'; receiving: boolean; at: string }>;
}

export const emptyPresence = (): RoomPresence => ({ feeds: [], ended: [], receiving: [] });

const receives = (presence: RoomPresence, handle: string | undefined, media: 'audio' | 'video') =>
  presence.receiving.some((r) => r.handle === handle && r.media === media && r.receiving);

/** Contract §8: on camera while the media server receives both their audio and their video. */
const onCameraFeed = (presence: RoomPresence) => (f: RoomPresence['feeds'][number]) =>
  receives(presence, f.handle, 'audio') && receives(presence, f.handle, 'video');

/** The identities on camera now, each once. */
export const onCameraIn = (presence: RoomPresence): MediaIdentity[] => [
  ...new Set(presence.feeds.filter(onCameraFeed(presence)).map((f) => f.identity)),
];

/**
 * The presence after `event`, changed in place; answers whether its identity came on camera or left it
 * (undefined when the event changes no one's presence: a duplicate, a late one, a second connection).
 */
export function applyMediaEvent(presence: RoomPresence, event: MediaEvent): 'arrived' | 'left' | undefined {
  const wasOn = onCameraIn(presence).includes(event.identity);
  if (event.kind === 'receiving') takeReceiving(presence, event);
  else takePublisher(presence, event);
  const isOn = onCameraIn(presence).includes(event.identity);
  return isOn === wasOn ? undefined : isOn ? 'arrived' : 'left';
}

function takeReceiving(presence: RoomPresence, event: ReceivingEvent): void {
  const known = presence.receiving.find((r) => r.handle === event.handle && r.media === event.media);
  if (!known) presence.receiving.push({ ...pick(event) });
  else if (Date.parse(event.at) >= Date.parse(known.at)) Object.assign(known, pick(event));
}

const pick = ({ handle, media, receiving, at }: ReceivingEvent) => ({ handle, media, receiving, at });

function takePublisher(presence: RoomPresence, event: PublisherEvent): void {
  if (presence.ended.includes(event.feed)) return;
  const at = presence.feeds.findIndex((f) => f.feed === event.feed);
  if (event.kind === 'published') {
    if (at < 0)
      presence.feeds.push({
        feed: event.feed,
        identity: event.identity,
        handle: event.handle,
        since: event.at,
      });
    return;
  }
  presence.ended.push(event.feed);
  if (at >= 0) {
    const [gone] = presence.feeds.splice(at, 1);
    presence.receiving = presence.receiving.filter((r) => r.handle !== gone.handle);
  }
}
