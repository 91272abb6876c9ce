import { ParentClosePolicy, startChild } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { SessionStatus } from '../core/session/messages';
import type { DatabaseSteps } from './sessionActivities';
import type { EventData, EventName } from '../core/session/events';
import { eventId, type Occurrence } from '../core/session/eventIds';
import { webhookDeliveryWorkflow } from './webhookDelivery';
import { deliveryWorkflowIdOf } from '../core/temporal/webhookDelivery';

/**
 * Records a session's event and hands each delivery its first attempt could not finish to a delivery
 * workflow of its own. Workflow code: the session's workflow publishes through it, and so do the sweep
 * that ends a session whose workflow was terminated and the composition of the act's grid.
 */
export async function publishSessionEvent(
  db: Pick<DatabaseSteps, 'publishEvent'>,
  published: {
    sessionId: string;
    /** Absent for an event from outside the session's course: the session's status as recorded then. */
    status?: SessionStatus;
    event: EventName;
    data: EventData[EventName];
    occurrence: Occurrence;
  },
): Promise<void> {
  const { sessionId, status, event, data, occurrence } = published;
  const { deliveries } = await db.publishEvent({
    eventId: eventId(sessionId, event, data, occurrence),
    sessionId,
    event,
    status,
    data,
  });
  for (const delivery of deliveries) {
    try {
      await startChild(webhookDeliveryWorkflow, {
        workflowId: deliveryWorkflowIdOf(delivery.deliveryId),
        args: [delivery],
        // A slow or dead receiver must never hold the session back, nor die with it.
        parentClosePolicy: ParentClosePolicy.ABANDON,
      });
    } catch (err) {
      // Its workflow is already carrying the delivery on: this event was published before, by a run an
      // operator has since reset to an earlier point (the run again keeps the event's id, and the old
      // run's children outlive it), or by another sweep at the same moment. Left uncaught, this would
      // fail the workflow that publishes.
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
  }
}
