import { patched } from '@temporalio/workflow';

/**
 * One patch for every change below at once, taken by the sessions started since. Each `patched()` a new
 * workflow passes costs its history a marker and a `TemporalChangeVersion` upsert (Temporal's SDK
 * records one per patch, and each upsert is a visibility write): a scheduled session passed four before
 * its timer. Sessions started before this keep asking for each change, so their histories replay; in
 * the Temporal UI the new ones list this patch alone under TemporalChangeVersion.
 */
const EVERY_CHANGE_SO_FAR = 'every-change-to-2026-11-27';

/**
 * The changes that patch stands for. A later change asks `patched()` itself: sessions started under the
 * one patch must replay without it.
 */
export type EarlierChange =
  | 'database-steps-local'
  | 'transaction-asked-in-task-first'
  | 'named-notary-ready-at-once'
  | 'legacy-join-judged'
  | 'closes-in-a-task-of-its-own'
  | 'mail-beside-the-flow'
  | 'network-witnesses'
  | 'network-offers'
  | 'notarized-documents'
  | 'network-wait-continues-as-new';

/** Whether a session takes an earlier change's new path. */
export type Changes = (change: EarlierChange) => boolean;

/**
 * Whether this session was started under the one patch, and its `has` for each earlier change. Call once,
 * first in the workflow, before any change it stands for, so that a history recorded before it replays
 * as it ran.
 */
export function sessionChanges(): { current: boolean; has: Changes } {
  const current = patched(EVERY_CHANGE_SO_FAR);
  return { current, has: (change) => current || patched(change) };
}
