import type { SessionStatus } from '../session/messages';
import type { SessionWorkflowInput } from '../session/workflowInput';
import type { WebhookDeliveryInput, WebhookDeliveryOutcome } from './webhookDelivery';

/**
 * The service's workflow types, by the names the worker registers them under (workflows/index.ts exports
 * a function of each name). Callers start them by name with these signatures, never by importing
 * workflow code.
 */
export const WORKFLOW_TYPES = {
  session: 'sessionWorkflow',
  webhookDelivery: 'webhookDeliveryWorkflow',
  mailDelivery: 'mailDeliveryWorkflow',
  loginLinkCleanup: 'loginLinkCleanupWorkflow',
  housekeeping: 'housekeepingWorkflow',
  terminatedWorkflowSweep: 'terminatedWorkflowSweepWorkflow',
  recordingComposition: 'recordingCompositionWorkflow',
} as const;

/** `abandoned`: the workflow found no session row (its creation was rolled back) and ended. */
export type SessionOutcome = SessionStatus | 'abandoned';

export type SessionWorkflow = (input: SessionWorkflowInput) => Promise<SessionOutcome>;
export type WebhookDeliveryWorkflow = (input: WebhookDeliveryInput) => Promise<WebhookDeliveryOutcome>;
export type MailDeliveryWorkflow = (input: { outboxId: string }) => Promise<string>;

/** The one workflow an outbox e-mail that belongs to no session is sent by. */
export const mailWorkflowIdOf = (outboxId: string): string => `mail-${outboxId}`;

/** The one workflow that composes a session's recording into its grid. */
export const compositionWorkflowIdOf = (sessionId: string): string => `recording-grid-${sessionId}`;
