import { isMediaIdentity, type MediaEvent } from '../../core/session/media';

/** Janus's event handler types the service reads: plugin events (the videoroom's). */
const PLUGIN_EVENT = 64;

interface JanusEvent {
  type?: number;
  timestamp?: number;
  event?: { plugin?: string; data?: { event?: string; room?: unknown; id?: unknown } };
}

/** A room's event, before the room is matched to its session and segment. */
export type RoomEvent = Omit<MediaEvent, 'segment'> & { room: string };

const KINDS: Record<string, MediaEvent['kind']> = {
  published: 'published',
  unpublished: 'unpublished',
  leaving: 'unpublished',
};

/**
 * The videoroom's events about publishers (their streams began; they stopped or left), from a batch as
 * Janus's HTTP event handler posts it (one event, or an array when grouped). Anything else is left out.
 */
export function roomEventsOf(batch: unknown): RoomEvent[] {
  const events = (Array.isArray(batch) ? batch : [batch]) as JanusEvent[];
  const found: RoomEvent[] = [];
  for (const event of events) {
    const data = event?.event?.data;
    if (event?.type !== PLUGIN_EVENT || event.event?.plugin !== 'janus.plugin.videoroom' || !data) continue;
    const kind = KINDS[String(data.event)];
    if (!kind || typeof data.room !== 'string' || typeof data.id !== 'string') continue;
    const identity = data.id.split('~')[0];
    if (!isMediaIdentity(identity)) continue;
    const at = new Date(typeof event.timestamp === 'number' ? event.timestamp / 1000 : Date.now());
    found.push({ room: data.room, identity, kind, at: at.toISOString() });
  }
  return found;
}
