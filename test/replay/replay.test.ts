import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import { HISTORIES_DIR } from '../support/histories';
import { testEnvironment } from '../support/environment';

/** One recorded history per path of the session and delivery workflows. */
const EXPECTED = [
  // Recorded before signed documents existed: replays through the `notarized-documents` patch.
  'session-now-team-notary',
  'session-completed-with-signed-documents',
  'session-out-of-order-actions',
  'session-notarize-later',
  'session-pretag-hold',
  'session-network-notary-wait',
  'session-expired',
  'session-cancelled',
  'session-notary-manual-release',
  'session-worker-restart',
  // Recorded with invitations sent beside the main flow (the `mail-beside-the-flow` patch).
  'session-mail-bounced',
  'session-cancelled-while-mail-deferred',
  'session-documents-failed-then-retried',
  // Ready at creation with a named notary (`named-notary-ready-at-once`), joined by update, released
  // while its documents were being finalized.
  'session-ready-at-once-released-while-finalizing',
  // Identity proofing: outcomes recorded by update, a lockout, same-device checks, the network asked
  // only once the signer verified.
  'session-identity-kba-locked-out',
  'session-identity-same-device',
  'session-identity-then-network',
  // The database steps as local activities (the `database-steps-local` patch): markers where the
  // histories above have activity tasks.
  'session-completed-local-database-steps',
  'session-notarize-later-local-database-steps',
  'session-network-offer-accepted-local-database-steps',
  'session-documents-failed-local-database-steps',
  // Whether the API's transaction committed, asked within the first workflow task
  // (`transaction-asked-in-task-first`): a marker where the histories above have an activity task.
  'session-completed-transaction-asked-in-task',
  'session-notarize-later-transaction-asked-in-task',
  // One patch for every change so far (`every-change-to-2026-11-27`): a marker and an upsert where the
  // histories above have one for each change.
  'session-completed-every-change-at-once',
  'session-notarize-later-every-change-at-once',
  // A cancel that met the invitations' completion, its last events committed behind a timer before the
  // session closed (`closes-in-a-task-of-its-own`).
  'session-cancelled-while-invitation-sent',
  // A cancel's task lost after it published (its worker killed), run again after a join was signalled.
  'session-task-lost-after-publishing',
  // Reset by an operator to the task that published session_created, whose delivery workflow was
  // still retrying: the run again met that workflow running (a child start that failed) and went on.
  'session-reset-while-delivery-retried',
  'session-reset-before-join',
  'webhook-delivery-redelivered-while-retrying',
  // Redelivered over and over while retrying: the run continued as new (`delivery-continues-as-new`).
  'webhook-delivery-continued-as-new',
  // A cancellation requested in Temporal, taken as the integrator's cancel; and declined by a completed
  // session holding its documents, which went on to release them.
  'session-cancel-requested-in-temporal',
  'session-cancel-declined-once-completed',
  // Before publishers attempted first: the workflow made every attempt.
  'webhook-delivery-retries',
  'webhook-delivery-gone',
  // The publisher's first attempt failed: the workflow waits the schedule's first step, then goes on.
  'webhook-delivery-after-first-attempt',
  'webhook-delivery-gone-after-first-attempt',
  // Its retries stopped by an operator (Temporal's cancellation) while an attempt was under way: given up.
  'webhook-delivery-cancelled-by-operator',
];

/**
 * What still runs as an ordinary activity task: the wait for an API transaction still open after the
 * first tries (visible to operators as a pending activity), mail (heartbeats, SMTP timeouts) and the
 * documents (seconds each).
 */
const ACTIVITY_TASKS = new Set([
  'confirmSessionRecorded',
  'sendInvitations',
  'sendCompletionNotices',
  'finalizeDocument',
]);

function recordedEvents(name: string) {
  const { events } = temporal.api.history.v1.History.decode(
    fs.readFileSync(path.join(HISTORIES_DIR, `${name}.history.bin`)),
  );
  return events!;
}

/** The activities a history gave Temporal as activity tasks, in order. */
const activityTasksOf = (events: ReturnType<typeof recordedEvents>) =>
  events.flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);

describe('workflow determinism', () => {
  it('replays every recorded history against the current workflow code', async function () {
    this.timeout(120_000);
    const files = fs.readdirSync(HISTORIES_DIR).filter((f) => f.endsWith('.history.bin'));
    assert.deepEqual(
      EXPECTED.filter((name) => !files.includes(`${name}.history.bin`)),
      [],
      'every path has a recorded history (record with RECORD_HISTORIES=1 npm run test:only)',
    );
    const histories = files.map((file) => ({
      workflowId: path.basename(file, '.history.bin'),
      history: temporal.api.history.v1.History.decode(fs.readFileSync(path.join(HISTORIES_DIR, file))),
    }));
    const failures: string[] = [];
    for await (const result of Worker.runReplayHistories(
      { workflowBundle: testEnvironment().workflowBundle },
      histories,
    )) {
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    assert.deepEqual(failures, []);
  });

  it('a session started with the database steps as local activities gives activity tasks only to the others', () => {
    for (const name of EXPECTED.filter((n) => n.endsWith('-local-database-steps'))) {
      const events = recordedEvents(name);
      const tasks = activityTasksOf(events);
      const markers = events.filter(
        (e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity',
      );
      assert.deepEqual(
        tasks.filter((t) => !ACTIVITY_TASKS.has(t)),
        [],
        `${name}: activity tasks ${tasks.join(', ')}`,
      );
      assert.ok(markers.length >= 2, `${name}: ${markers.length} local activity markers`);
    }
  });

  it('a session whose transaction had committed learns it within its first workflow task', () => {
    for (const name of EXPECTED.filter((n) => n.endsWith('-transaction-asked-in-task'))) {
      const events = recordedEvents(name);
      const tasks = activityTasksOf(events);
      assert.ok(!tasks.includes('confirmSessionRecorded'), `${name}: activity tasks ${tasks.join(', ')}`);
      // What the first workflow task recorded: its commands, up to the next task.
      const firstCompleted = events.findIndex((e) => e.workflowTaskCompletedEventAttributes);
      const nextTask = events.findIndex(
        (e, i) => i > firstCompleted && e.workflowTaskScheduledEventAttributes,
      );
      const localSteps = events.slice(firstCompleted + 1, nextTask).flatMap((e) => {
        const marker = e.markerRecordedEventAttributes;
        if (marker?.markerName !== 'core_local_activity') return [];
        const data = JSON.parse(Buffer.from(marker.details!.data.payloads![0].data!).toString('utf8'));
        return [data.activity_type as string];
      });
      assert.equal(
        localSteps[0],
        'confirmSessionRecorded',
        `${name}: first task's local steps ${localSteps}`,
      );
    }
  });
});
