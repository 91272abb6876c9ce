import { WorkflowNotFoundError } from '@temporalio/common';
import type { Sequelize } from 'sequelize';
import type { TemporalHandle } from '../temporal/client';
import { executeUpdate } from '../temporal/updates';
import { mediaEventUpdate, workflowIdOf } from '../../core/session/messages';
import { verdictOfUpdateFailure } from '../sessions/sessionRules';
import type { RoomEvent } from './janusEvents';
import { sessionOfOpenRoom } from './rooms';

const UPDATE_WAIT_MS = 10_000;

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
    for (const { room, ...event } of events) {
      const open = await sessionOfOpenRoom(this.sequelize, room);
      if (!open) continue;
      try {
        await executeUpdate(
          this.temporal,
          workflowIdOf(open.sessionId),
          mediaEventUpdate,
          [{ ...event, segment: open.segment }],
          Date.now() + UPDATE_WAIT_MS,
        );
        relayed += 1;
      } catch (err) {
        if (!verdictOfUpdateFailure(err) && !(err instanceof WorkflowNotFoundError)) throw err;
      }
    }
    return { relayed, dropped: events.length - relayed };
  }
}
