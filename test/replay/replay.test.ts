import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import { HISTORIES_DIR } from '../support/histories';
import { testEnvironment } from '../support/environment';

/**
 * One recorded history per path of the session and delivery workflows, recorded by the tests that take
 * each path (RECORD_HISTORIES=1 npm run test:only). Re-record them only for a change made before the
 * first release; from then on a change is versioned (docs/workflow-versioning.md).
 */
const EXPECTED = [
  'session-completed',
  'session-notarize-later',
  'session-out-of-order-actions',
  'session-pretag-hold',
  'session-expired',
  'session-cancelled',
  'session-notary-manual-release',
  'session-worker-restart',
  'session-mail-bounced',
  'session-cancelled-while-mail-deferred',
  'session-cancelled-while-invitation-sent',
  'session-documents-failed',
  'session-ready-at-once-released-while-finalizing',
  'session-completion-keeps-judged-notary',
  // Identity proofing: outcomes recorded by update, a lockout, same-device checks, the network asked
  // only once the signer verified.
  'session-identity-kba-locked-out',
  'session-identity-same-device',
  'session-identity-then-network',
  // The on-demand network: an offer accepted, one that moved on, a notary released, network witnesses;
  // a notary and a witness who left the network before the act (the operator's signals); a session told a
  // notary became free.
  'session-network-offer-accepted',
  'session-network-offer-moved-on',
  'session-network-notary-released',
  'session-network-witnesses',
  'session-network-witness-replaced',
  'session-network-notary-left',
  'session-network-notary-freed',
  // A cancel's task lost after it published (its worker killed), run again after a join was signalled.
  'session-task-lost-after-publishing',
  // Reset by an operator to the task that published session_created, whose delivery workflow was
  // still retrying: the run again met that workflow running (a child start that failed) and went on.
  'session-reset-while-delivery-retried',
  'session-reset-before-join',
  // A cancellation requested in Temporal, taken as the integrator's cancel; and declined by a completed
  // session holding its documents, which went on to release them.
  'session-cancel-requested-in-temporal',
  'session-cancel-declined-once-completed',
  // The publisher's first attempt failed: the workflow waits the schedule's first step, then goes on.
  'webhook-delivery-after-first-attempt',
  'webhook-delivery-gone-after-first-attempt',
  'webhook-delivery-redelivered-while-retrying',
  // Redelivered over and over while retrying: the run continued as new.
  'webhook-delivery-continued-as-new',
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

  const sessions = () => EXPECTED.filter((name) => name.startsWith('session-'));

  it('a session gives Temporal activity tasks only for what needs one; its database steps are local', () => {
    for (const name of sessions()) {
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
    for (const name of sessions()) {
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
