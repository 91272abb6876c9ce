export { sessionWorkflow } from './session';
export { webhookDeliveryWorkflow } from './webhookDelivery';
export { loginLinkCleanupWorkflow } from './loginLinkCleanup';
export { housekeepingWorkflow } from './housekeeping';
export { terminatedWorkflowSweepWorkflow } from './terminatedWorkflowSweep';
export { mailDeliveryWorkflow } from './mailDelivery';
export { recordingCompositionWorkflow } from './recordingComposition';
