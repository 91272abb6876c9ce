export { sessionWorkflow } from './session';
export { webhookDeliveryWorkflow } from './webhookDelivery';
