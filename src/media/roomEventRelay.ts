import type { Sequelize } from 'sequelize';
import type { TemporalHandle } from '../temporal/client';
import { updateSession } from '../temporal/sessionUpdates';
import { mediaEventUpdate, workflowIdOf } from '../../core/session/messages';
import type { RoomEvent } from './janusEvents';
import { openRoomOf, sessionOfOpenRoom } from './rooms';
import type { MediaEvent } from '../../core/session/media';

/**
 * Hands the media server's events to the sessions whose rooms they are about. Events of rooms no longer
 * open, or that a session refuses (a lost room's, late), are dropped: they change nothing. An unreachable
 * Temporal fails the batch, and Janus posts it again.
 */
export class RoomEventRelay {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly temporal: TemporalHandle,
  ) {}

  async relay(events: RoomEvent[]): Promise<{ relayed: number; dropped: number }> {
    let relayed = 0;
    for (const roomEvent of events) {
      const open = await this.openRoomOf(roomEvent);
      if (!open) continue;
      const event = withoutRoom(roomEvent);
      const answer = await updateSession(this.temporal, workflowIdOf(open.sessionId), mediaEventUpdate, [
        { ...event, segment: open.segment } as MediaEvent,
      ]);
      if (answer.outcome === 'applied') relayed += 1;
    }
    return { relayed, dropped: events.length - relayed };
  }

  /** The session and segment a publisher's room names, or where a handle's session has its room open now. */
  private async openRoomOf(event: RoomEvent): Promise<{ sessionId: string; segment: number } | undefined> {
    if ('room' in event) return sessionOfOpenRoom(this.sequelize, event.room);
    if (!UUID.test(event.sessionId)) return undefined;
    const room = await openRoomOf(this.sequelize, event.sessionId);
    return room && { sessionId: event.sessionId, segment: room.segment };
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function withoutRoom(event: RoomEvent): Omit<MediaEvent, 'segment'> {
  if ('room' in event) {
    const { room: _room, ...rest } = event;
    return rest;
  }
  const { sessionId: _sessionId, ...rest } = event;
  return rest;
}
