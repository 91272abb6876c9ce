import assert from 'node:assert/strict';
import * as registered from '../../workflows';
import {
  WORKFLOW_TYPES,
  type MailDeliveryWorkflow,
  type SessionWorkflow,
  type WebhookDeliveryWorkflow,
} from '../../core/temporal/workflows';

// Callers start workflows by name with core's signatures: the worker must register exactly those.
const typed: [SessionWorkflow, WebhookDeliveryWorkflow, MailDeliveryWorkflow] = [
  registered.sessionWorkflow,
  registered.webhookDeliveryWorkflow,
  registered.mailDeliveryWorkflow,
];

describe('workflow types', () => {
  it('every name callers start is a workflow the worker registers, and nothing else is', () => {
    assert.equal(typed.length, 3);
    assert.deepEqual(Object.keys(registered).sort(), Object.values(WORKFLOW_TYPES).sort());
    for (const name of Object.values(WORKFLOW_TYPES))
      assert.equal(typeof (registered as Record<string, unknown>)[name], 'function', name);
  });
});
