import fs from 'node:fs';
import { readAuditTrail, verifyChain } from '../src/audit/auditChain';
import { recordStage } from '../test/results/stageResults';
import { type Step } from './driver';
import { SESSION_COURSE_EVENTS } from '../test/support/sessionCourse';
import type { Evidence } from './evidence';

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/**
 * How long each fault kept answering 503, and how much a step that overlapped it was held back. A fault's
 * effects are looked for from its start until 20 s after it ended, or the next fault began; a step that
 * overlaps several is charged to the latest that began before it ended.
 */
function faultFiguresOf(e: Evidence) {
  const untilOf = (i: number) => Math.min(e.faults[i].to + 20_000, e.faults[i + 1]?.from ?? Infinity);
  const chargedTo = (s: Step) => {
    let charged = -1;
    e.faults.forEach((f, i) => {
      if (f.from <= s.to && untilOf(i) >= s.from) charged = i;
    });
    return charged;
  };
  const faultFigures = e.faults.map((f, i) => {
    const until = untilOf(i);
    const within = e.callLog.unavailableAt.filter((t) => t >= f.from && t <= until);
    const overlapping = e.steps.filter((s) => chargedTo(s) === i);
    const delays = overlapping.map((s) => {
      const usual = median(e.steps.filter((o) => o.name === s.name).map((o) => o.to - o.from));
      return s.to - s.from - usual;
    });
    return {
      fault: f.name,
      duration_s: +((f.to - f.from) / 1000).toFixed(1),
      responses_503: within.length,
      longest_503_window_s: within.length
        ? +((Math.max(...within) - Math.min(...within)) / 1000).toFixed(1)
        : 0,
      steps_in_window: overlapping.length,
      longest_step_delay_s: delays.length ? +(Math.max(...delays) / 1000).toFixed(1) : 0,
    };
  });
  return faultFigures;
}

/** What the database and the receiver hold after the run: each figure the report and the checks read. */
async function findings(e: Evidence) {
  const [sessions] = (await e.sequelize.query(
    `SELECT id, status, documents_status FROM sessions WHERE id = ANY($1::uuid[])`,
    { bind: [e.sessionIds] },
  )) as [Array<{ id: string; status: string; documents_status: string }>, unknown];
  const finished = sessions.filter((s) => s.status === 'completed' && s.documents_status === 'released');
  const received = new Map<string, string[]>();
  for (const r of e.receiver.receipts)
    received.set(r.webhookId, [...(received.get(r.webhookId) ?? []), r.body]);
  const [[keys]] = (await e.sequelize.query(
    `SELECT count(*)::int AS in_progress FROM idempotency_keys WHERE state = 'in_progress'`,
  )) as [Array<{ in_progress: number }>, unknown];
  const brokenChains: string[] = [];
  for (const id of e.sessionIds) {
    const verdict = verifyChain(await readAuditTrail(e.sequelize, id));
    if (!verdict.intact) brokenChains.push(id);
  }
  const [[duplicates]] = (await e.sequelize.query(
    `SELECT (SELECT count(*) FROM sessions) - (SELECT count(DISTINCT notarization_id) FROM sessions) AS sessions,
            (SELECT count(*) - count(DISTINCT document_id) FROM signed_documents) AS signed_documents`,
  )) as [Array<{ sessions: string; signed_documents: string }>, unknown];
  return {
    finished,
    lost: e.deliveries.filter((d) => !received.has(d.event_id)),
    changedBody: [...received.entries()].filter(([, bodies]) => new Set(bodies).size > 1),
    pending: e.deliveries.filter((d) => d.status !== 'delivered'),
    keys,
    brokenChains,
    offCourse: await offCourseSessions(e),
    duplicates,
    faultFigures: faultFiguresOf(e),
  };
}

/**
 * Each session's course, each event once whatever faults it met: one missing is an event lost; one twice is
 * a step whose workflow task was lost and run again on another path.
 */
async function offCourseSessions(e: Evidence) {
  const [recorded] = (await e.sequelize.query(
    `SELECT session_id, array_agg(event) AS events FROM events
      WHERE session_id = ANY($1::uuid[]) GROUP BY session_id`,
    { bind: [e.sessionIds] },
  )) as [Array<{ session_id: string; events: string[] }>, unknown];
  const course = JSON.stringify([...SESSION_COURSE_EVENTS].sort());
  return e.sessionIds
    .map((id) => ({
      session_id: id,
      events: (recorded.find((r) => r.session_id === id)?.events ?? []).sort(),
    }))
    .filter((r) => JSON.stringify(r.events) !== course);
}

type Findings = Awaited<ReturnType<typeof findings>>;

function reportOf(e: Evidence, f: Findings) {
  return {
    sessions: { planned: e.opts.sessions, completed_and_released: f.finished.length },
    deliveries: {
      events: e.deliveries.length,
      delivered: e.deliveries.filter((d) => d.status === 'delivered').length,
      lost: f.lost.length,
      left_pending: f.pending.length,
      received_including_duplicates: e.receiver.receipts.length,
      bad_signatures: e.receiver.badSignatures,
      same_id_different_body: f.changedBody.length,
      sessions_whose_events_are_not_their_course: f.offCourse.length,
    },
    http: {
      by_status: Object.fromEntries([...e.callLog.statuses.entries()].sort(([a], [b]) => a - b)),
      server_errors_other_than_503: e.callLog.serverErrors.length,
      connection_errors: e.callLog.connectionErrors,
      unexpected_answers: e.callLog.unexpected,
    },
    idempotency_keys_in_progress: f.keys.in_progress,
    broken_audit_chains: f.brokenChains.length,
    duplicate_rows: {
      sessions: Number(f.duplicates.sessions),
      signed_documents: Number(f.duplicates.signed_documents),
    },
    process_exits_restarted_by_supervisor: e.unexpectedExits,
    faults: f.faultFigures,
  };
}

/** Checks the run's evidence against what issue 16 requires; returns what failed. */
export async function verify(e: Evidence): Promise<string[]> {
  const f = await findings(e);
  const report = reportOf(e, f);
  fs.writeFileSync(e.reportFile, JSON.stringify(report, null, 2));
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  const failures: string[] = [...e.sessionErrors];
  const checks = { passed: 0, failed: 0 };
  const check = (ok: boolean, failure: () => string) => {
    checks[ok ? 'passed' : 'failed'] += 1;
    if (!ok) failures.push(failure());
  };
  const workerKill = f.faultFigures.find((figure) => figure.fault === 'worker SIGKILL');
  check(!e.sessionErrors.length, () => `${e.sessionErrors.length} sessions met errors (above)`);
  check(
    f.finished.length === e.opts.sessions,
    () => `${f.finished.length}/${e.opts.sessions} sessions completed and released`,
  );
  check(!f.lost.length, () => `${f.lost.length} events never reached the receiver`);
  check(!f.pending.length, () => `${f.pending.length} deliveries not delivered`);
  check(!f.changedBody.length, () => `${f.changedBody.length} webhook-ids delivered with different bodies`);
  check(
    !f.offCourse.length,
    () =>
      `sessions whose events are not their course's, each once: ${JSON.stringify(f.offCourse.slice(0, 3))}`,
  );
  check(!e.receiver.badSignatures, () => `${e.receiver.badSignatures} deliveries with a bad signature`);
  check(
    !e.callLog.serverErrors.length,
    () =>
      `${e.callLog.serverErrors.length} answers 5xx other than 503: ${JSON.stringify(e.callLog.serverErrors.slice(0, 3))}`,
  );
  check(!f.keys.in_progress, () => `${f.keys.in_progress} idempotency keys left in progress`);
  check(!f.brokenChains.length, () => `${f.brokenChains.length} broken audit chains`);
  check(
    !Number(f.duplicates.sessions) && !Number(f.duplicates.signed_documents),
    () => `duplicate rows: ${JSON.stringify(f.duplicates)}`,
  );
  check(
    !workerKill || workerKill.longest_step_delay_s <= 30,
    () => `a worker kill held a session back ${workerKill?.longest_step_delay_s} s (target ≤ 30 s)`,
  );
  recordStage({ stage: 'faults', ...checks, skipped: 0 });
  return failures;
}
