import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { temporal } from '@temporalio/proto';
import type { Activities } from '../../activities';
import type { SessionPlan } from '../../core/session/plan';
import type { SessionWorkflowInput } from '../../core/session/workflowInput';
import { sessionWorkflow } from '../../workflows/session';
import { webhookDeliveryWorkflow } from '../../workflows/webhookDelivery';
import { redeliverSignal } from '../../core/temporal/webhookDelivery';
import {
  acceptOfferUpdate,
  cancelUpdate,
  completeUpdate,
  identityOutcomeUpdate,
  joinUpdate,
  networkNotaryLeftSignal,
  networkNotaryFreeSignal,
  networkWitnessLeftSignal,
  snapshotQuery,
  startUpdate,
  type CompleteRequest,
  type NetworkWitness,
  type SessionStatus,
} from '../../core/session/messages';
import { startTimeSkipping, withMockedWorker } from '../support/timeSkipping';
import { eventually } from '../support/eventually';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const signer = {
  role: 'signer' as const,
  index: 0,
  email: 's@example.com',
  sameDeviceAll: false,
  isHost: false,
};

/** What the network answers the n-th offer attempt: a notary, or none free (ask again later). */
type NetworkAnswer =
  { notaryId: string; retryAfterMs?: undefined } | { notaryId?: undefined; retryAfterMs: number };

/** Activities that record what the workflow asked of them, in the test server's time. */
function mockActivities(
  env: TestWorkflowEnvironment,
  network: (attempt: number) => NetworkAnswer,
  timing = { offerTimeoutMs: HOUR, startTimeoutMs: DAY },
) {
  const record = {
    statuses: [] as Array<{ status: SessionStatus; at: number }>,
    events: [] as string[],
    networkAttemptsAt: [] as number[],
    webhookAttemptsAt: [] as number[],
    webhookLastAttempts: [] as boolean[],
    closedOffers: [] as string[],
    released: 0,
    /** The network witnesses in the session's places, as the test sets them; and when they were asked for. */
    witnesses: [] as NetworkWitness[],
    witnessAttemptsAt: [] as number[],
  };
  const now = () => env.currentTimeMs();
  const activities: Partial<Activities> = {
    confirmSessionRecorded: async () => undefined,
    recordStatus: async ({ status }) => {
      record.statuses.push({ status, at: await now() });
    },
    publishEvent: async ({ event }) => {
      record.events.push(event);
      return { deliveries: [] };
    },
    sendInvitations: async () => ({ bounced: [] }),
    sendCompletionNotices: async () => ({ bounced: [] }),
    assignTeamNotary: async () => ({
      notary: { email: 'n@example.com', name: 'Nora Notary', source: 'team' },
      retryAfterMs: 0,
    }),
    offerToNetworkNotary: async () => {
      record.networkAttemptsAt.push(await now());
      const answer = network(record.networkAttemptsAt.length);
      const offer = answer.notaryId
        ? {
            offerId: `offer-${record.networkAttemptsAt.length}`,
            notaryId: answer.notaryId,
            email: `${answer.notaryId}@example.com`,
            name: 'Net Notary',
          }
        : null;
      return { offer, retryAfterMs: answer.retryAfterMs ?? 0, ...timing };
    },
    closeOffer: async ({ outcome }) => {
      record.closedOffers.push(outcome);
    },
    acceptOffer: async () => undefined,
    releaseNetworkNotary: async () => {
      record.released++;
    },
    assignNetworkWitnesses: async ({ count }) => {
      record.witnessAttemptsAt.push(await now());
      return { witnesses: record.witnesses, missing: count - record.witnesses.length, retryAfterMs: HOUR };
    },
    signingProgress: async () => ({ places: [], applied: [] }),
    listDocumentsToFinalize: async () => [],
    recordJournal: async () => undefined,
    attemptWebhookDelivery: async ({ isLastAttempt }) => {
      record.webhookAttemptsAt.push(await now());
      record.webhookLastAttempts.push(isLastAttempt);
      return 'retry';
    },
  };
  return { activities, record };
}

const neverANotary = (): NetworkAnswer => ({ retryAfterMs: 12 * HOUR });
/** A completion whose notary's commission outlasts any test (the test server's clock jumps ahead freely). */
const commissioned = { commissionExpiresOn: '9999-12-31' };
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('workflow timers, in time-skipping (mocked activities)', function () {
  this.timeout(60_000);
  let env: TestWorkflowEnvironment;
  let taskQueue: string;

  before(async function () {
    this.timeout(120_000);
    env = await startTimeSkipping();
  });
  after(async () => {
    await env?.teardown();
  });
  beforeEach(() => {
    taskQueue = `timers-${crypto.randomUUID()}`;
  });

  /** Each run of a workflow that continued as new, first to last: its history's length and its input. */
  async function runsOf(workflowId: string): Promise<Array<{ events: number; input: unknown }>> {
    const runs: Array<{ events: number; input: unknown }> = [];
    // Each run's first event names the run it continued from: walk back from the last.
    const latest = await env.client.workflow.getHandle(workflowId).describe();
    for (let runId: string | undefined = latest.runId; runId;) {
      const history: temporal.api.history.v1.IHistory = await env.client.workflow
        .getHandle(workflowId, runId)
        .fetchHistory();
      const events = history.events!;
      const started: temporal.api.history.v1.IWorkflowExecutionStartedEventAttributes =
        events[0].workflowExecutionStartedEventAttributes!;
      const [input] = started.input!.payloads!.map((p) => JSON.parse(Buffer.from(p.data!).toString()));
      runs.unshift({ events: events.length, input });
      runId = started.continuedExecutionRunId || undefined;
    }
    return runs;
  }

  async function start(
    input: { expiresAt?: string; startAt?: string } & Partial<Omit<SessionPlan, 'startAt'>> = {},
  ) {
    const { expiresAt, startAt, ...plan } = input;
    const sessionId = crypto.randomUUID();
    const args: SessionWorkflowInput = {
      sessionId,
      transactionId: '1',
      accountId: crypto.randomUUID(),
      notarizationId: null,
      expiresAt,
      plan: {
        holdInvitesUntilPretagged: false,
        startAt: startAt ? Date.parse(startAt) : undefined,
        deliveryMode: 'immediately',
        notary: { kind: 'team', memberId: crypto.randomUUID() },
        primarySignerIndex: 0,
        witnessesRequired: 0,
        serviceWitnesses: 0,
        identityRequired: [],
        testMode: true,
        ...plan,
      },
    };
    return env.client.workflow.start(sessionWorkflow, {
      taskQueue,
      workflowId: `session-${sessionId}`,
      args: [args],
    });
  }

  it('a session scheduled a day ahead opens at session_timing, not before', async () => {
    const { activities, record } = mockActivities(env, neverANotary);
    const startAt = (await env.currentTimeMs()) + DAY;
    await withMockedWorker(env, taskQueue, activities, async () => {
      const handle = await start({ startAt: new Date(startAt).toISOString() });
      await env.sleep(DAY - HOUR);
      assert.equal((await handle.query(snapshotQuery)).status, 'scheduled');
      await env.sleep(2 * HOUR);
      assert.equal((await handle.query(snapshotQuery)).status, 'ready');
      const opened = record.statuses.find((s) => s.status === 'ready')!;
      assert.ok(opened.at >= startAt, `opened ${opened.at - startAt} ms after session_timing`);
      await handle.executeUpdate(cancelUpdate, { args: [{}] });
      assert.equal(await handle.result(), 'cancelled');
    });
  });

  for (const state of ['awaiting_pretag', 'scheduled', 'awaiting_notary', 'ready', 'in_progress'] as const) {
    it(`expires at auto_expire_session_on while ${state}`, async () => {
      const { activities, record } = mockActivities(env, neverANotary);
      const now = await env.currentTimeMs();
      const expiresAt = now + 3 * DAY;
      await withMockedWorker(env, taskQueue, activities, async () => {
        const handle = await start({
          expiresAt: new Date(expiresAt).toISOString(),
          holdInvitesUntilPretagged: state === 'awaiting_pretag',
          startAt: state === 'scheduled' ? new Date(now + 30 * DAY).toISOString() : undefined,
          notary:
            state === 'awaiting_notary'
              ? { kind: 'network' }
              : { kind: 'team', memberId: crypto.randomUUID() },
        });
        if (state === 'in_progress') {
          await env.sleep(60_000);
          await handle.executeUpdate(joinUpdate, { args: [signer] });
          await handle.executeUpdate(startUpdate);
        }
        await env.sleep(60_000);
        assert.equal((await handle.query(snapshotQuery)).status, state);
        assert.equal(await handle.result(), 'expired');
        const last = record.statuses.at(-1)!;
        assert.equal(last.status, 'expired');
        assert.ok(
          last.at >= expiresAt && last.at < expiresAt + HOUR,
          `expired ${last.at - expiresAt} ms late`,
        );
        assert.equal(record.events.at(-1), 'session_expired');
      });
    });
  }

  it('a completed session does not expire', async () => {
    const { activities, record } = mockActivities(env, neverANotary);
    const expiresAt = (await env.currentTimeMs()) + DAY;
    await withMockedWorker(env, taskQueue, activities, async () => {
      const handle = await start({ expiresAt: new Date(expiresAt).toISOString() });
      await env.sleep(60_000);
      await handle.executeUpdate(joinUpdate, { args: [signer] });
      await handle.executeUpdate(startUpdate);
      await handle.executeUpdate(completeUpdate, { args: [commissioned] });
      assert.equal(await handle.result(), 'completed');
      assert.ok(!record.statuses.some((s) => s.status === 'expired'));
    });
  });

  it('a completion is judged at the act: refused once the commission has ended in its jurisdiction (UTC’s day from an older API), recorded at the act’s time', async () => {
    const { activities } = mockActivities(env, neverANotary);
    const completions: Array<string | undefined> = [];
    const actNotaries: unknown[] = [];
    const recordStatus = activities.recordStatus!;
    activities.recordStatus = async (input) => {
      if (input.status === 'completed') {
        completions.push(input.completedAt);
        actNotaries.push(input.actNotary);
      }
      return recordStatus(input);
    };
    await withMockedWorker(env, taskQueue, activities, async () => {
      const handle = await start({});
      await handle.executeUpdate(joinUpdate, { args: [signer] });
      await handle.executeUpdate(startUpdate);
      const expired = (lastDay: string) => (err: Error) =>
        (err.cause as Error)?.message ===
        `Session cannot be completed: the notary's commission expired on ${lastDay}`;
      // A Guam commission's last day ends at 14:00 UTC: a minute later, UTC's day has ten hours to run.
      const guamDay = dayOf((await env.currentTimeMs()) + DAY);
      const guamEnd = Date.parse(`${guamDay}T14:00:00Z`);
      await env.sleep(guamEnd - (await env.currentTimeMs()) + 60_000);
      const notaryIn = (state: string, expiresOn: string) => ({
        name: 'Nora Notary',
        state,
        county: null,
        commission_number: `${state}-1`,
        commission_expires_on: expiresOn,
        seal_id: null,
        signature_id: null,
      });
      const guam: CompleteRequest = {
        commissionExpiresOn: guamDay,
        commissionEndsAt: new Date(guamEnd).toISOString(),
        notary: notaryIn('GU', guamDay),
      };
      await assert.rejects(handle.executeUpdate(completeUpdate, { args: [guam] }), expired(guamDay));

      // An API from before commissions' own days sends no end: the day is UTC's. Started on the
      // commission's last day, the session runs on past midnight.
      const lastDay = dayOf(await env.currentTimeMs());
      const midnight = Date.parse(`${lastDay}T00:00:00Z`) + DAY;
      await env.sleep(midnight - (await env.currentTimeMs()) + 60_000);
      await assert.rejects(
        handle.executeUpdate(completeUpdate, { args: [{ commissionExpiresOn: lastDay }] }),
        expired(lastDay),
      );
      await assert.rejects(
        handle.executeUpdate(completeUpdate, { args: [{ commissionExpiresOn: null }] }),
        (err: Error) =>
          (err.cause as Error)?.message ===
          "Session cannot be completed: the notary's commission is not on file (onboarding is pending)",
      );
      assert.equal((await handle.query(snapshotQuery)).status, 'in_progress', 'nothing changed');

      // Renewed through the new day: the act is allowed, and recorded at the workflow's time of it with
      // the notary it was judged by.
      const before = await env.currentTimeMs();
      const renewed = notaryIn('TX', dayOf(midnight));
      await handle.executeUpdate(completeUpdate, {
        args: [{ commissionExpiresOn: dayOf(midnight), notary: renewed }],
      });
      const after = await env.currentTimeMs();
      assert.equal(await handle.result(), 'completed');
      // Every record of the completed session (its documents' states too) carries the same time.
      assert.equal(new Set(completions).size, 1, completions.join(', '));
      assert.ok(actNotaries.length > 0);
      for (const kept of actNotaries) assert.deepEqual(kept, renewed);
      const at = Date.parse(completions[0]!);
      assert.ok(
        at >= before && at <= after,
        `completed at ${completions[0]}, between ${before} and ${after}`,
      );
    });
  });

  it('an idle on-demand session asks nobody: the network is asked once its signer waits', async () => {
    const { activities, record } = mockActivities(env, () => ({ notaryId: 'n1' }));
    await withMockedWorker(env, taskQueue, activities, async () => {
      const handle = await start({ notary: { kind: 'network', state: 'TX' } });
      await env.sleep(7 * DAY);
      assert.equal(record.networkAttemptsAt.length, 0, 'a week without a signer: no offer');
      assert.equal((await handle.query(snapshotQuery)).status, 'awaiting_notary');
      await handle.executeUpdate(joinUpdate, { args: [signer] });
      await eventually(
        () => record.networkAttemptsAt.length,
        (n) => n === 1,
        'an offer once the signer waits',
      );
      await handle.executeUpdate(cancelUpdate, { args: [{}] });
      assert.equal(await handle.result(), 'cancelled');
      assert.deepEqual(record.closedOffers, ['withdrawn']);
    });
  });

  it('an unanswered offer moves on after the offer timeout; a notary who does not start is released', async () => {
    const timing = { offerTimeoutMs: 2 * 60_000, startTimeoutMs: 15 * 60_000 };
    const { activities, record } = mockActivities(env, (n) => ({ notaryId: `n${n}` }), timing);
    await withMockedWorker(env, taskQueue, activities, async () => {
      const handle = await start({ notary: { kind: 'network' } });
      await handle.executeUpdate(joinUpdate, { args: [signer] });
      await env.sleep(timing.offerTimeoutMs + 30_000);
      assert.deepEqual(record.closedOffers, ['expired']);
      assert.equal((await handle.query(snapshotQuery)).offeredTo, 'n2');
      const accepted = await handle.executeUpdate(acceptOfferUpdate, { args: [{ notaryId: 'n2' }] });
      assert.equal(accepted.status, 'ready');
      await env.sleep(timing.startTimeoutMs + 30_000);
      assert.equal(record.released, 1);
      assert.equal((await handle.query(snapshotQuery)).status, 'awaiting_notary');
      assert.ok(record.events.includes('notary_released'));
      assert.equal((await handle.query(snapshotQuery)).offeredTo, 'n3', 'back in the queue');
      await handle.executeUpdate(cancelUpdate, { args: [{}] });
      assert.equal(await handle.result(), 'cancelled');
    });
  });

  it('a network notary who leaves the network is let go at once: their open offer withdrawn, an accept not started released', async () => {
    const timing = { offerTimeoutMs: HOUR, startTimeoutMs: DAY };
    const { activities, record } = mockActivities(env, (n) => ({ notaryId: `n${n}` }), timing);
    await withMockedWorker(env, taskQueue, activities, async () => {
      const handle = await start({ notary: { kind: 'network' } });
      const began = await env.currentTimeMs();
      await handle.executeUpdate(joinUpdate, { args: [signer] });
      const offeredTo = () => handle.query(snapshotQuery).then((s) => s.offeredTo);
      await eventually(offeredTo, (id) => id === 'n1', 'the offer to n1');
      await handle.signal(networkNotaryLeftSignal, { notaryId: 'n1' });
      await eventually(offeredTo, (id) => id === 'n2', 'the offer to the next notary');
      assert.deepEqual(record.closedOffers, ['withdrawn']);

      assert.equal(
        (await handle.executeUpdate(acceptOfferUpdate, { args: [{ notaryId: 'n2' }] })).status,
        'ready',
      );
      await handle.signal(networkNotaryLeftSignal, { notaryId: 'n2' });
      await eventually(offeredTo, (id) => id === 'n3', 'back in the queue, offered to the next');
      assert.equal(record.released, 1);
      assert.ok(record.events.includes('notary_released'));
      assert.ok((await env.currentTimeMs()) - began < timing.offerTimeoutMs, 'without waiting out a timeout');
      await handle.executeUpdate(cancelUpdate, { args: [{}] });
      assert.equal(await handle.result(), 'cancelled');
    });
  });

  it('the network is asked again every retry interval until a notary is free', async () => {
    const interval = 10 * 60_000;
    const { activities, record } = mockActivities(env, (attempt) =>
      attempt < 4 ? { retryAfterMs: interval } : { notaryId: 'n1' },
    );
    await withMockedWorker(env, taskQueue, activities, async () => {
      const handle = await start({ notary: { kind: 'network', state: 'TX' } });
      await handle.executeUpdate(joinUpdate, { args: [signer] });
      await env.sleep(interval * 3 + 60_000);
      assert.equal((await handle.query(snapshotQuery)).offeredTo, 'n1');
      await handle.executeUpdate(acceptOfferUpdate, { args: [{ notaryId: 'n1' }] });
      assert.equal((await handle.query(snapshotQuery)).status, 'ready');
      const gaps = record.networkAttemptsAt.slice(1).map((t, i) => t - record.networkAttemptsAt[i]);
      assert.equal(gaps.length, 3);
      for (const gap of gaps) assert.ok(gap >= interval && gap < interval + 60_000, `gap ${gap} ms`);
      assert.ok(record.events.includes('notary_assigned'));
      await handle.executeUpdate(cancelUpdate, { args: [{}] });
      await handle.result();
    });
  });

  it('a session told that a notary became free asks at once, not at its next retry', async () => {
    const { activities, record } = mockActivities(env, (attempt) =>
      attempt < 2 ? { retryAfterMs: DAY } : { notaryId: 'n1' },
    );
    await withMockedWorker(env, taskQueue, activities, async () => {
      const handle = await start({ notary: { kind: 'network' } });
      await handle.executeUpdate(joinUpdate, { args: [signer] });
      await eventually(
        () => record.networkAttemptsAt.length,
        (n) => n === 1,
        'the first attempt',
      );
      await handle.signal(networkNotaryFreeSignal);
      await eventually(
        () => handle.query(snapshotQuery).then((s) => s.offeredTo),
        (id) => id === 'n1',
        'the offer once told',
      );
      const [first, second] = record.networkAttemptsAt;
      assert.ok(second - first < HOUR, `asked again ${second - first} ms after, not a day`);
      await handle.executeUpdate(cancelUpdate, { args: [{}] });
      assert.equal(await handle.result(), 'cancelled');
    });
  });

  it('a session that waits through thousands of network retries continues as new and keeps its history bounded', async function () {
    this.timeout(240_000);
    const attempts = 2_000;
    const { activities, record } = mockActivities(env, (attempt) =>
      attempt < attempts ? { retryAfterMs: 100 } : { notaryId: 'n1' },
    );
    await withMockedWorker(env, taskQueue, activities, async () => {
      const handle = await start({ notary: { kind: 'network' } });
      await handle.executeUpdate(joinUpdate, { args: [signer] });
      // The test server skips the 100 ms waits as fast as the worker runs the attempts.
      await env.sleep(attempts * 100 + 60_000);
      assert.equal((await handle.query(snapshotQuery)).offeredTo, 'n1');
      await handle.executeUpdate(acceptOfferUpdate, { args: [{ notaryId: 'n1' }] });
      assert.equal((await handle.query(snapshotQuery)).status, 'ready');
      // The signer who joined in an earlier run is still known: the session starts and completes.
      await handle.executeUpdate(startUpdate);
      await handle.executeUpdate(completeUpdate, { args: [commissioned] });
      assert.equal(await handle.result(), 'completed');
      assert.equal(record.networkAttemptsAt.length, attempts);

      const runs = await runsOf(handle.workflowId);
      const lengths = runs.map((run) => run.events);
      const generations = runs.map((run) => (run.input as SessionWorkflowInput).resume?.generation ?? 0);
      // Each run names its events apart from the others' (their ids count publishes per run).
      assert.deepEqual(
        generations,
        generations.map((_, i) => i),
      );
      assert.ok(
        lengths.length >= 2,
        `continued as new: ${lengths.length} runs of ${lengths.join(', ')} events`,
      );
      for (const length of lengths)
        assert.ok(length <= 10_200, `a run's history stays bounded: ${length} events`);
      assert.equal(
        record.events.filter((e) => e === 'session_created').length,
        1,
        'the session was opened once',
      );
    });
  });

  it('network witnesses: asked for every retry interval while none is free; one who leaves before the act is replaced, and their join and ID check stop counting', async () => {
    const { activities, record } = mockActivities(env, neverANotary);
    const witness = (email: string) => ({ role: 'witness' as const, index: 0, email });
    const announced = (n: number) =>
      eventually(
        () => record.events.filter((e) => e === 'witness_assigned').length,
        (count) => count === n,
        `${n} witness_assigned`,
      );
    const refusal = (reason: string) => (err: Error) => (err.cause as Error)?.message === reason;
    const passes = (email: string) => ({
      ...witness(email),
      checkId: crypto.randomUUID(),
      method: 'biometrics' as const,
      outcome: 'passed' as const,
      attempt: 1,
      reasons: [],
    });
    await withMockedWorker(env, taskQueue, activities, async () => {
      const handle = await start({
        witnessesRequired: 1,
        serviceWitnesses: 1,
        identityRequired: [{ role: 'witness', index: 0 }],
      });
      await handle.executeUpdate(joinUpdate, { args: [signer] });
      await env.sleep(2 * HOUR + 60_000);
      assert.equal(record.witnessAttemptsAt.length, 3, 'at once, then every retry interval');
      record.witnesses = [{ index: 0, email: 'wanda@example.com', name: 'Wanda Witness' }];
      await env.sleep(HOUR);
      await announced(1);
      const attempts = record.witnessAttemptsAt.length;
      await env.sleep(2 * DAY);
      assert.equal(record.witnessAttemptsAt.length, attempts, 'all places filled: nobody asked again');
      const joins = (email: string) =>
        handle.executeUpdate(joinUpdate, {
          args: [{ ...witness(email), sameDeviceAll: false, isHost: false }],
        });
      await joins('wanda@example.com');
      await handle.executeUpdate(identityOutcomeUpdate, { args: [passes('wanda@example.com')] });

      // Wanda leaves the network; Will takes her place.
      record.witnesses = [{ index: 0, email: 'will@example.com', name: 'Will Witness' }];
      await handle.signal(networkWitnessLeftSignal);
      await announced(2);
      assert.deepEqual((await handle.query(snapshotQuery)).joined, [
        { role: 'signer', index: 0, email: 's@example.com' },
      ]);
      await assert.rejects(
        handle.executeUpdate(startUpdate),
        refusal('Session cannot be started before its witnesses have joined (0 of 1)'),
      );
      await joins('will@example.com');
      await assert.rejects(
        handle.executeUpdate(startUpdate),
        refusal('Session cannot be started before every participant has verified their identity (0 of 1)'),
      );
      await handle.executeUpdate(identityOutcomeUpdate, { args: [passes('will@example.com')] });
      assert.equal((await handle.executeUpdate(startUpdate)).status, 'in_progress');

      // Once the act has begun, a witness leaving changes nothing.
      const asked = record.witnessAttemptsAt.length;
      await handle.signal(networkWitnessLeftSignal);
      await handle.executeUpdate(cancelUpdate, { args: [{}] });
      assert.equal(await handle.result(), 'cancelled');
      assert.equal(record.witnessAttemptsAt.length, asked);
    });
  });

  it('a webhook is retried on its schedule, then given up', async () => {
    const { activities, record } = mockActivities(env, neverANotary);
    const schedule = [5 * 60_000, HOUR, 6 * HOUR];
    await withMockedWorker(env, taskQueue, activities, async () => {
      const outcome = await env.client.workflow.execute(webhookDeliveryWorkflow, {
        taskQueue,
        workflowId: `webhook-delivery-${crypto.randomUUID()}`,
        args: [{ deliveryId: crypto.randomUUID(), retryDelaysMs: schedule }],
      });
      assert.equal(outcome, 'failed');
      const gaps = record.webhookAttemptsAt.slice(1).map((t, i) => t - record.webhookAttemptsAt[i]);
      assert.equal(record.webhookAttemptsAt.length, schedule.length + 1);
      gaps.forEach((gap, i) =>
        assert.ok(gap >= schedule[i] && gap < schedule[i] + 60_000, `gap ${i}: ${gap} ms`),
      );
    });
  });

  /**
   * A delivery workflow on `retryDelaysMs` whose attempts all fail, sent the redeliver signal with
   * `signalArgs` once its first attempt failed; answers its attempts' times from the moment it was sent.
   */
  async function redeliveredWhileWaiting(retryDelaysMs: number[], signalArgs: unknown[]): Promise<number[]> {
    const { activities, record } = mockActivities(env, neverANotary);
    let asked = 0;
    await withMockedWorker(env, taskQueue, activities, async () => {
      const handle = await env.client.workflow.start(webhookDeliveryWorkflow, {
        taskQueue,
        workflowId: `webhook-delivery-${crypto.randomUUID()}`,
        args: [{ deliveryId: crypto.randomUUID(), retryDelaysMs }],
      });
      await eventually(
        async () => record.webhookAttemptsAt.length,
        (n) => n === 1,
        'the first attempt',
      );
      asked = await env.currentTimeMs();
      await handle.signal(redeliverSignal.name, ...signalArgs);
      assert.equal(await handle.result(), 'failed');
    });
    return record.webhookAttemptsAt.map((at) => at - asked);
  }

  it('a redelivery asked for while a delivery waits is attempted at once, then on the schedule it brings', async () => {
    const attempts = await redeliveredWhileWaiting([6 * HOUR, 6 * HOUR], [{ retryDelaysMs: [5 * 60_000] }]);
    const [, now, next] = attempts;
    assert.equal(attempts.length, 3);
    assert.ok(now < 60_000, `attempted ${now} ms after it was asked for`);
    assert.ok(next - now >= 5 * 60_000 && next - now < 6 * 60_000, `then after ${next - now} ms`);
  });

  it('a redelivery an operator signals without a schedule, or with a malformed one, attempts at once on the workflow’s own', async () => {
    for (const input of [[], [{ retryDelaysMs: ['soon'] }]] as unknown[][]) {
      const attempts = await redeliveredWhileWaiting([6 * HOUR], input);
      const [, now, next] = attempts;
      assert.equal(attempts.length, 3, JSON.stringify(input));
      assert.ok(now < 60_000, `attempted ${now} ms after it was asked for`);
      assert.ok(next - now >= 6 * HOUR && next - now < 6 * HOUR + 60_000, `then after ${next - now} ms`);
    }
  });

  it('a delivery redelivered over and over while it is retried continues as new, keeps its history bounded and its schedule', async function () {
    this.timeout(180_000);
    const { activities, record } = mockActivities(env, neverANotary);
    const ownSchedule = [6 * HOUR, 6 * HOUR];
    const redeliveries = 120;
    await withMockedWorker(env, taskQueue, activities, async () => {
      const handle = await env.client.workflow.start(webhookDeliveryWorkflow, {
        taskQueue,
        workflowId: `webhook-delivery-${crypto.randomUUID()}`,
        args: [{ deliveryId: crypto.randomUUID(), retryDelaysMs: ownSchedule }],
      });
      let asked = 0;
      for (let n = 1; n <= redeliveries; n++) {
        await eventually(
          async () => record.webhookAttemptsAt.length,
          (attempts) => attempts === n,
          `attempt ${n}`,
        );
        asked = await env.currentTimeMs();
        // The last without a schedule, as an operator may send it: the schedule the delivery started on.
        await handle.signal(redeliverSignal.name, ...(n < redeliveries ? [{ retryDelaysMs: [HOUR] }] : []));
      }
      assert.equal(await handle.result(), 'failed');

      assert.equal(record.webhookAttemptsAt.length, 1 + redeliveries + ownSchedule.length);
      const [now, next, last] = record.webhookAttemptsAt.slice(redeliveries).map((at) => at - asked);
      assert.ok(now < 60_000, `the last redelivery attempted ${now} ms after it was asked for`);
      assert.ok(next - now >= 6 * HOUR && next - now < 6 * HOUR + 60_000, `then after ${next - now} ms`);
      assert.ok(last - next >= 6 * HOUR && last - next < 6 * HOUR + 60_000, `then after ${last - next} ms`);
      assert.deepEqual(
        record.webhookLastAttempts,
        [...Array(record.webhookAttemptsAt.length - 1).fill(false), true],
        'only the last attempt is told it is the last',
      );
      const lengths = (await runsOf(handle.workflowId)).map((run) => run.events);
      assert.ok(
        lengths.length >= 2,
        `continued as new: ${lengths.length} runs of ${lengths.join(', ')} events`,
      );
      for (const length of lengths)
        assert.ok(length <= 1_050, `a run's history stays bounded: ${length} events`);
    });
  });

  it('a delivery handed over after the publisher’s first attempt waits before its own', async () => {
    const { activities, record } = mockActivities(env, neverANotary);
    await withMockedWorker(env, taskQueue, activities, async () => {
      const started = await env.currentTimeMs();
      const outcome = await env.client.workflow.execute(webhookDeliveryWorkflow, {
        taskQueue,
        workflowId: `webhook-delivery-${crypto.randomUUID()}`,
        args: [{ deliveryId: crypto.randomUUID(), retryDelaysMs: [HOUR], firstAttemptAfterMs: 5 * 60_000 }],
      });
      assert.equal(outcome, 'failed');
      assert.equal(record.webhookAttemptsAt.length, 2);
      const [first, second] = record.webhookAttemptsAt.map((t) => t - started);
      assert.ok(first >= 5 * 60_000 && first < 6 * 60_000, `first attempt after ${first} ms`);
      assert.ok(second - first >= HOUR, `then the schedule: ${second - first} ms`);
    });
  });
});
