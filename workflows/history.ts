import { workflowInfo } from '@temporalio/workflow';

/** Whether this run should continue as new: Temporal suggests it, or its history passed `limit` events. */
export function historyPast(limit: number): boolean {
  const info = workflowInfo();
  return info.continueAsNewSuggested || info.historyLength > limit;
}
