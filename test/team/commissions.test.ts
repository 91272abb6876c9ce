import assert from 'node:assert/strict';
import { addTeamNotary, createTestAccount } from '../support/accounts';
import { request } from '../support/http';
import {
  action,
  createSession,
  getSession,
  joinSession,
  sessionBody,
  teamNotarySession,
  tokenOf,
  waitForSession,
} from '../support/sessions';
import { testEnvironment } from '../support/environment';
import { farJurisdictionDays } from '../support/farJurisdictions';
import { query } from './helpers';
import { eventually } from '../support/eventually';
import { recordHistory } from '../support/histories';
import { jurisdictionDate } from '../../src/team/jurisdictionTime';
import { downloadAll, pdftotext, removeTempFiles, squash } from '../documents/helpers';

const DAY = 24 * 60 * 60 * 1000;
// A date as Texas, where these notaries are commissioned, reads it: a commission runs to the end of its last day
// there, so UTC's date (ahead of Texas's from midnight UTC to 05:00 or 06:00) would make "yesterday" still today.
const dateIn = (ms: number) => jurisdictionDate('TX', Date.now() + ms);

function assertInvalidNotary(res: { status: number; body: any; text: string }, what: string) {
  assert.equal(res.status, 403, `${what}: ${res.text}`);
  assert.equal(res.body.response_message, 'Invalid session_notary_email', what);
}

describe('only a commissioned notary notarizes', function () {
  this.timeout(60_000);
  after(() => removeTempFiles());

  it('a notary whose commission has expired cannot be named', async () => {
    const account = await createTestAccount();
    const notary = await addTeamNotary(account.account_id, undefined, { expiresOn: dateIn(-DAY) });
    assertInvalidNotary(
      await createSession(account.api_key, await sessionBody({ session_notary_email: notary.email })),
      'expired yesterday',
    );
  });

  it('a session scheduled after the commission expires cannot name the notary; one before it can', async () => {
    const account = await createTestAccount();
    const notary = await addTeamNotary(account.account_id, undefined, { expiresOn: dateIn(5 * DAY) });
    const at = (ms: number) => ({
      session_notary_email: notary.email,
      notarization_timing_type: 'notarize_later',
      session_timing: new Date(Date.now() + ms).toISOString(),
    });
    assertInvalidNotary(
      await createSession(account.api_key, await sessionBody(at(10 * DAY))),
      'scheduled after the expiry',
    );
    const before = await createSession(account.api_key, await sessionBody(at(2 * DAY)));
    assert.equal(before.status, 200, before.text);
  });

  it('a session that asks for a state takes a named notary commissioned there only, at creation and at the act', async () => {
    const account = await createTestAccount();
    const notary = await addTeamNotary(account.account_id, undefined, { state: 'TX' });
    const asking = (state: string) =>
      sessionBody({ session_notary_email: notary.email, state_specific_notary: state });
    assertInvalidNotary(
      await createSession(account.api_key, await asking('California')),
      'commissioned elsewhere',
    );
    const created = await createSession(account.api_key, await asking('Texas'));
    assert.equal(created.status, 200, created.text);
    const id = created.body.bn_session_id as string;
    await waitForSession(account.api_key, id, (s) => s.status === 'ready');
    assert.equal((await joinSession(created.body.bn_signing_url)).status, 200);

    // The notary records a commission of another state (their own renewal may) while the session is open.
    const recordState = (state: string) =>
      query('UPDATE notary_commissions SET state = $2 WHERE user_id = $1', [notary.userId, state]);
    const elsewhere =
      "the session asks for a notary commissioned in TX, and the notary's commission is from OK";
    await recordState('OK');
    const start = await action(account.api_key, id, 'start');
    assert.equal(start.status, 409, start.text);
    assert.equal(start.body.response_message, `Session cannot be started: ${elsewhere}`);
    await recordState('TX');
    assert.equal((await action(account.api_key, id, 'start')).status, 200);
    await recordState('OK');
    const complete = await action(account.api_key, id, 'complete');
    assert.equal(complete.status, 409, complete.text);
    assert.equal(complete.body.response_message, `Session cannot be completed: ${elsewhere}`);
    await recordState('TX');
    assert.equal((await action(account.api_key, id, 'complete')).status, 200);
  });

  it('a commission that expires while the session waits blocks start with a 409 that says so', async () => {
    const account = await createTestAccount();
    const notary = await addTeamNotary(account.account_id);
    const created = await createSession(
      account.api_key,
      await sessionBody({ session_notary_email: notary.email }),
    );
    assert.equal(created.status, 200, created.text);
    const id = created.body.bn_session_id;
    await waitForSession(account.api_key, id, (s) => s.status === 'ready');
    const joined = await request(`/sign/${tokenOf(created.body.bn_signing_url)}/join`, {
      method: 'POST',
      headers: { accept: 'application/json' },
    });
    assert.equal(joined.status, 200, joined.text);

    // The calendar moves past the expiry date while the session is open.
    const expired = dateIn(-DAY);
    await query('UPDATE notary_commissions SET commission_expires_on = $2 WHERE user_id = $1', [
      notary.userId,
      expired,
    ]);
    const refused = await action(account.api_key, id, 'start');
    assert.equal(refused.status, 409, refused.text);
    assert.equal(
      refused.body.response_message,
      `Session cannot be started: the notary's commission expired on ${expired}`,
    );
    assert.equal((await waitForSession(account.api_key, id, () => true)).status, 'ready', 'nothing changed');

    // Renewed, the notary may start.
    await query('UPDATE notary_commissions SET commission_expires_on = $2 WHERE user_id = $1', [
      notary.userId,
      dateIn(365 * DAY),
    ]);
    const started = await action(account.api_key, id, 'start');
    assert.equal(started.status, 200, started.text);
  });

  it('completion is the act: a commission that lapses while the session runs blocks it with a 409; the act is recorded at the workflow’s time', async () => {
    const { account, notary, created, id } = await teamNotarySession();
    await waitForSession(account.api_key, id, (s) => s.status === 'ready');
    const joined = await joinSession(created.body.bn_signing_url);
    assert.equal(joined.status, 200, joined.text);
    assert.equal((await action(account.api_key, id, 'start')).status, 200);

    // The calendar moves past the expiry date while the notary is with the signer.
    const expired = dateIn(-DAY);
    const setExpiry = (on: string) =>
      query('UPDATE notary_commissions SET commission_expires_on = $2 WHERE user_id = $1', [
        notary.userId,
        on,
      ]);
    await setExpiry(expired);
    const refused = await action(account.api_key, id, 'complete');
    assert.equal(refused.status, 409, refused.text);
    assert.equal(
      refused.body.response_message,
      `Session cannot be completed: the notary's commission expired on ${expired}`,
    );
    assert.equal(
      (await waitForSession(account.api_key, id, () => true)).status,
      'in_progress',
      'nothing changed',
    );

    await setExpiry(dateIn(365 * DAY));
    const completed = await action(account.api_key, id, 'complete');
    assert.equal(completed.status, 200, completed.text);
    assert.equal(completed.body.status, 'completed');

    // The session's completion time is the workflow task's that accepted the completion, not the time its
    // row was written: the certificate states it.
    const { events } = await testEnvironment()
      .runtime.temporal.client.workflow.getHandle(`session-${id}`)
      .fetchHistory();
    const accepted = events!.findIndex(
      (e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === 'complete',
    );
    const taskStarted = events!
      .slice(0, accepted)
      .reverse()
      .find((e) => e.workflowTaskStartedEventAttributes)!;
    const taskTime =
      Number(taskStarted.eventTime!.seconds) * 1000 + Math.floor(taskStarted.eventTime!.nanos! / 1e6);
    const session = await waitForSession(account.api_key, id, (s) => s.completed_at);
    assert.equal(session.completed_at, new Date(taskTime).toISOString());
  });

  it('the certificates state the commission the act was judged by, though the record changes while the completion waits out a database fault', async () => {
    const { account, notary, created, id } = await teamNotarySession();
    await waitForSession(account.api_key, id, (s) => s.status === 'ready');
    assert.equal((await joinSession(created.body.bn_signing_url)).status, 200);
    assert.equal((await action(account.api_key, id, 'start')).status, 200);

    // Recording this session's completion fails (the sequence counts the attempts: it is not rolled
    // back) until the hold is lifted; the worker retries it as it does any database failure.
    const hold = `test_hold_${id.replace(/-/g, '')}`;
    const ddl = (sql: string) => testEnvironment().runtime.sequelize.query(sql);
    await ddl(`CREATE SEQUENCE ${hold}`);
    await ddl(`CREATE FUNCTION ${hold}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.id = '${id}' AND NEW.status = 'completed' AND OLD.status <> 'completed' THEN
          PERFORM nextval('${hold}');
          RAISE EXCEPTION 'held by the test';
        END IF;
        RETURN NEW;
      END $$`);
    await ddl(`CREATE TRIGGER ${hold} BEFORE UPDATE ON sessions FOR EACH ROW EXECUTE FUNCTION ${hold}()`);
    const lift = async () => {
      await ddl(`DROP TRIGGER IF EXISTS ${hold} ON sessions`);
      await ddl(`DROP FUNCTION IF EXISTS ${hold}()`);
      await ddl(`DROP SEQUENCE IF EXISTS ${hold}`);
    };
    try {
      const completing = action(account.api_key, id, 'complete');
      await eventually(
        () => query<{ is_called: boolean }>(`SELECT is_called FROM ${hold}`),
        (rows) => rows[0].is_called,
        'the completion to be accepted and its record held',
      );
      // The notary renews (a new number, a later expiry) after the act, before its record lands.
      await query(
        `UPDATE notary_commissions SET commission_number = 'TX-RENEWED', commission_expires_on = '2039-12-31'
          WHERE user_id = $1`,
        [notary.userId],
      );
      await lift();
      const completed = await completing;
      assert.equal(completed.status, 200, completed.text);
    } finally {
      await lift();
    }

    await waitForSession(account.api_key, id, (s) => s.documents_status === 'released');
    const [file] = (await downloadAll(account.api_key, id)).files;
    const certificate = squash(await pdftotext(file.bytes, 2));
    assert.ok(certificate.includes('Commission number: TX-900001'), certificate);
    assert.ok(certificate.includes('Commission expires: 2035-12-31'), certificate);
    assert.ok(!certificate.includes('TX-RENEWED'), certificate);
    await recordHistory('session-completion-keeps-judged-notary', `session-${id}`);
  });

  it('the certificate dates the act in the zone the notary’s device reports, when it is their state’s: Central time in Tennessee', async () => {
    const account = await createTestAccount();
    const notary = await addTeamNotary(account.account_id, undefined, { state: 'TN' });
    const created = await createSession(
      account.api_key,
      await sessionBody({ session_notary_email: notary.email }),
    );
    assert.equal(created.status, 200, created.text);
    const id = created.body.bn_session_id as string;
    await waitForSession(account.api_key, id, (s) => s.status === 'ready');
    assert.equal((await joinSession(created.body.bn_signing_url)).status, 200);
    assert.equal((await action(account.api_key, id, 'start')).status, 200);
    const complete = (body: object) =>
      request(`/api/integrationsv2/sessions/${id}/complete`, { auth: account.api_key, body });
    const unknownZone = await complete({ time_zone: 'Mars/Olympus' });
    assert.equal(unknownZone.status, 400, unknownZone.text);
    assert.equal(unknownZone.body.response_message, '"time_zone" must be an IANA time zone');
    assert.equal((await getSession(account.api_key, id)).body.status, 'in_progress');
    const completed = await complete({ time_zone: 'America/Chicago' });
    assert.equal(completed.status, 200, completed.text);

    await waitForSession(account.api_key, id, (s) => s.documents_status === 'released');
    const [file] = (await downloadAll(account.api_key, id)).files;
    const certificate = squash(await pdftotext(file.bytes, 2));
    const [, local, instant] = /Date of the act: (.+?) \((\S+)\)/.exec(certificate) ?? [];
    const central = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/Chicago',
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
    }).format(Date.parse(instant));
    // Tennessee's day ends first on Eastern time: without the notary's zone the act would read EST.
    assert.equal(local, central, certificate);
    assert.match(local, / C[SD]T$/);
  });

  it('a commission ends with its last day where it was issued: Guam’s before UTC’s, American Samoa’s after', async function () {
    this.timeout(180_000);
    const days = await farJurisdictionDays();
    const account = await createTestAccount();
    const readyAndJoined = async (notaryEmail: string) => {
      const created = await createSession(
        account.api_key,
        await sessionBody({ session_notary_email: notaryEmail }),
      );
      assert.equal(created.status, 200, created.text);
      const id = created.body.bn_session_id as string;
      await waitForSession(account.api_key, id, (s) => s.status === 'ready');
      assert.equal((await joinSession(created.body.bn_signing_url)).status, 200);
      return id;
    };

    // American Samoa's day runs eleven hours past UTC's: its last day there is not over.
    const samoa = await addTeamNotary(account.account_id, undefined, { state: 'AS', expiresOn: days.samoa });
    const samoaSession = await readyAndJoined(samoa.email);
    assert.equal((await action(account.api_key, samoaSession, 'start')).status, 200);
    const completed = await action(account.api_key, samoaSession, 'complete');
    assert.equal(completed.status, 200, completed.text);

    // Guam's runs ten hours ahead: its yesterday is over there, whatever UTC's date.
    const guam = await addTeamNotary(account.account_id, undefined, { state: 'GU', expiresOn: days.guam });
    const setGuamExpiry = (on: string) =>
      query('UPDATE notary_commissions SET commission_expires_on = $2 WHERE user_id = $1', [guam.userId, on]);
    const started = await readyAndJoined(guam.email);
    assert.equal((await action(account.api_key, started, 'start')).status, 200);
    const waiting = await readyAndJoined(guam.email);
    await setGuamExpiry(days.guamYesterday);
    const expired = `the notary's commission expired on ${days.guamYesterday}`;
    const refusedCompletion = await action(account.api_key, started, 'complete');
    assert.equal(refusedCompletion.status, 409, refusedCompletion.text);
    assert.equal(refusedCompletion.body.response_message, `Session cannot be completed: ${expired}`);
    const refusedStart = await action(account.api_key, waiting, 'start');
    assert.equal(refusedStart.status, 409, refusedStart.text);
    assert.equal(refusedStart.body.response_message, `Session cannot be started: ${expired}`);
    assertInvalidNotary(
      await createSession(account.api_key, await sessionBody({ session_notary_email: guam.email })),
      'named in Guam the day after the expiry',
    );
  });
});
