import {
  isMediaIdentity,
  type MediaIdentity,
  type PublisherEvent,
  type ReceivingEvent,
} from '../../core/session/media';

/** Janus's event handler types the service reads: media (receiving or not) and plugin events. */
const MEDIA_EVENT = 32;
const PLUGIN_EVENT = 64;

interface JanusEvent {
  type?: number;
  timestamp?: number;
  handle_id?: unknown;
  opaque_id?: unknown;
  event?: {
    plugin?: string;
    data?: { event?: string; room?: unknown; id?: unknown };
    media?: unknown;
    receiving?: unknown;
  };
}

/** A room's event, before the room (or, for media, the session) is matched to its segment. */
export type RoomEvent =
  | (Omit<PublisherEvent, 'segment'> & { room: string })
  | (Omit<ReceivingEvent, 'segment'> & { sessionId: string });

const KINDS: Record<string, PublisherEvent['kind']> = {
  published: 'published',
  unpublished: 'unpublished',
  leaving: 'unpublished',
};

/**
 * The proxy names each handle it attaches `<session id>/<identity>` (Janus's opaque id): its media events
 * name no room, and so find their session and person.
 */
export const opaqueIdOf = (sessionId: string, identity: MediaIdentity) => `${sessionId}/${identity}`;

const handleOf = (event: JanusEvent) =>
  typeof event.handle_id === 'number' || typeof event.handle_id === 'string'
    ? String(event.handle_id)
    : undefined;

/**
 * The events of a batch as Janus's HTTP event handler posts it (one event, or an array when grouped) that
 * say who is on camera: the videoroom's publishers beginning and ending, and the media server starting or
 * stopping to receive a handle's audio or video. Anything else is left out.
 */
export function roomEventsOf(batch: unknown): RoomEvent[] {
  const events = (Array.isArray(batch) ? batch : [batch]) as JanusEvent[];
  const found: RoomEvent[] = [];
  for (const event of events) {
    const at = new Date(
      typeof event?.timestamp === 'number' ? event.timestamp / 1000 : Date.now(),
    ).toISOString();
    const found1 = event?.type === MEDIA_EVENT ? receivingOf(event, at) : publisherOf(event, at);
    if (found1) found.push(found1);
  }
  return found;
}

function publisherOf(event: JanusEvent, at: string): RoomEvent | undefined {
  const data = event?.event?.data;
  if (event?.type !== PLUGIN_EVENT || event.event?.plugin !== 'janus.plugin.videoroom' || !data)
    return undefined;
  const kind = KINDS[String(data.event)];
  if (!kind || typeof data.room !== 'string' || typeof data.id !== 'string') return undefined;
  const identity = data.id.split('~')[0];
  if (!isMediaIdentity(identity)) return undefined;
  const handle = kind === 'published' ? handleOf(event) : undefined;
  return { room: data.room, identity, feed: data.id, ...(handle ? { handle } : {}), kind, at };
}

function receivingOf(event: JanusEvent, at: string): RoomEvent | undefined {
  const { media, receiving } = event.event ?? {};
  const handle = handleOf(event);
  const [sessionId, identity] = typeof event.opaque_id === 'string' ? event.opaque_id.split('/') : [];
  if ((media !== 'audio' && media !== 'video') || typeof receiving !== 'boolean' || !handle) return undefined;
  if (!sessionId || !isMediaIdentity(identity)) return undefined;
  return { sessionId, identity, handle, kind: 'receiving', media, receiving, at };
}
