import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { request } from '../support/http';
import { testEnvironment } from '../support/environment';
import { createSession, notarizationId, sessionBody } from '../support/sessions';
import { invited, memberToken } from '../team/helpers';
import { assertCreateFailure, assertPass, query, teamAccount, teamBody } from './helpers';

const newKey = () => `idem-${crypto.randomUUID()}`;

async function sessionsWith(notarization_id: string): Promise<Array<{ id: string; account_id: string }>> {
  return query('SELECT id, account_id FROM sessions WHERE notarization_id = $1', [notarization_id]);
}

const replayed = (res: { headers: Headers }) => res.headers.get('idempotent-replayed');

describe('Idempotency-Key on POST /sessions (contract §2)', function () {
  it('the same key with the same body replays the first answer and creates one session', async () => {
    const { apiKey, notaryEmail } = await teamAccount();
    const key = newKey();
    const body = await teamBody(notaryEmail);
    const first = await createSession(apiKey, body, { 'Idempotency-Key': key });
    assertPass(first, 'first request');
    assert.equal(replayed(first), null, 'the first answer is not a replay');
    const second = await createSession(apiKey, body, { 'Idempotency-Key': key });
    assert.equal(second.status, first.status, `replayed status; got ${second.status} ${second.text}`);
    assert.deepEqual(
      second.body,
      first.body,
      'the replay has the same body (same bn_session_id and signing URLs)',
    );
    assert.equal(replayed(second), 'true', 'header Idempotent-Replayed: true on the replay');
    const rows = await sessionsWith(body.notarization_id);
    assert.equal(rows.length, 1, `exactly one session row for the notarization_id, found ${rows.length}`);
    assert.equal(rows[0].id, first.body.bn_session_id);
  });

  it("the same key with another body is 409 'duplicate nonce' and creates nothing", async () => {
    const { apiKey, notaryEmail } = await teamAccount();
    const key = newKey();
    const body = await teamBody(notaryEmail);
    assertPass(await createSession(apiKey, body, { 'Idempotency-Key': key }));
    const other = { ...body, notarization_id: notarizationId() };
    const res = await createSession(apiKey, other, { 'Idempotency-Key': key });
    assert.equal(res.status, 409, `status — expected 409, got ${res.status} ${res.text}`);
    assert.deepEqual(res.body, { response: 'Fail', response_message: 'duplicate nonce' });
    assert.equal((await sessionsWith(other.notarization_id)).length, 0, 'the second body created no session');
    assert.equal((await sessionsWith(body.notarization_id)).length, 1);
  });

  it("keys are scoped per account: account B can use account A's key", async () => {
    const a = await teamAccount();
    const b = await teamAccount();
    const key = newKey();
    const bodyA = await teamBody(a.notaryEmail);
    const resA = await createSession(a.apiKey, bodyA, { 'Idempotency-Key': key });
    assertPass(resA, 'account A');
    const bodyB = await teamBody(b.notaryEmail);
    const resB = await createSession(b.apiKey, bodyB, { 'Idempotency-Key': key });
    assertPass(resB, "account B with A's key");
    assert.equal(replayed(resB), null, "B's answer is not A's replay");
    assert.notEqual(resB.body.bn_session_id, resA.body.bn_session_id);
    const rowsB = await sessionsWith(bodyB.notarization_id);
    assert.equal(rowsB.length, 1);
    assert.equal(rowsB[0].account_id, b.account.account_id);
  });

  it('keys are scoped per account: the very same body and key in two accounts make two sessions', async () => {
    const a = await teamAccount();
    const b = await teamAccount();
    const key = newKey();
    // No team notary in the body (it would differ per account); the pretag hold keeps the network idle.
    const body = await sessionBody({ send_invite_after_pretagging: true });
    const resA = await createSession(a.apiKey, body, { 'Idempotency-Key': key });
    const resB = await createSession(b.apiKey, body, { 'Idempotency-Key': key });
    assertPass(resA, 'account A');
    assertPass(resB, 'account B');
    assert.equal(replayed(resB), null, "B's answer is not A's replay");
    assert.notEqual(resB.body.bn_session_id, resA.body.bn_session_id);
    const rows = await sessionsWith(body.notarization_id);
    assert.deepEqual(
      rows.map((r) => r.account_id).sort(),
      [a.account.account_id, b.account.account_id].sort(),
      'one session in each account',
    );
  });

  it('two concurrent identical requests create exactly one session, and both get its bn_session_id', async () => {
    const { apiKey, notaryEmail } = await teamAccount();
    const key = newKey();
    const body = await teamBody(notaryEmail);
    const answers = await Promise.all([
      createSession(apiKey, body, { 'Idempotency-Key': key }),
      createSession(apiKey, body, { 'Idempotency-Key': key }),
      createSession(apiKey, body, { 'Idempotency-Key': key }),
    ]);
    for (const [i, res] of answers.entries()) assertPass(res, `concurrent request ${i}`);
    const ids = new Set(answers.map((r) => r.body.bn_session_id));
    assert.equal(ids.size, 1, `all answers name the same session, got ${[...ids].join(', ')}`);
    const rows = await sessionsWith(body.notarization_id);
    assert.equal(rows.length, 1, `exactly one session row, found ${rows.length}`);
    assert.equal(
      answers.filter((r) => replayed(r) === 'true').length,
      2,
      'two of the three answers are replays',
    );
  });

  it('a validation failure (403) is replayed too', async () => {
    const { apiKey, notaryEmail } = await teamAccount();
    const key = newKey();
    const body = await teamBody(notaryEmail);
    delete body.signing_type;
    const first = await createSession(apiKey, body, { 'Idempotency-Key': key });
    assertCreateFailure(first, 'signing_type fields are missing in request');
    assert.equal(replayed(first), null);
    const second = await createSession(apiKey, body, { 'Idempotency-Key': key });
    assertCreateFailure(second, 'signing_type fields are missing in request');
    assert.equal(replayed(second), 'true', 'the 403 is replayed, with Idempotent-Replayed: true');
    // The key is spent on that body: a corrected body under it is another request.
    const corrected = await createSession(
      apiKey,
      { ...body, signing_type: 'ron' },
      { 'Idempotency-Key': key },
    );
    assert.equal(
      corrected.status,
      409,
      `expected 409 for another body, got ${corrected.status} ${corrected.text}`,
    );
    assert.equal(corrected.body.response_message, 'duplicate nonce');
    assert.equal((await sessionsWith(body.notarization_id)).length, 0);
  });

  it('without a key, the same body twice creates two sessions', async () => {
    const { apiKey, notaryEmail } = await teamAccount();
    const body = await teamBody(notaryEmail);
    const first = await createSession(apiKey, body);
    const second = await createSession(apiKey, body);
    assertPass(first);
    assertPass(second);
    assert.notEqual(first.body.bn_session_id, second.body.bn_session_id);
    assert.equal(replayed(second), null);
    assert.equal((await sessionsWith(body.notarization_id)).length, 2);
  });
});

describe('Idempotency-Key belongs to its caller and survives a crash (issue: tenant isolation)', function () {
  this.timeout(60_000);

  it("keys are scoped to the principal: a team member never replays the API key's answer, nor one member another's", async () => {
    const { account, apiKey } = await teamAccount();
    const admins = [await invited(account.vendor_api_key, { business_role: 'admin' })];
    admins.push(await invited(account.vendor_api_key, { business_role: 'admin' }));
    const [first, second] = await Promise.all(
      admins.map((m) => memberToken(account.vendor_api_key, m.email)),
    );
    const created = await createSession(apiKey, await sessionBody({ send_invite_after_pretagging: true }));
    assertPass(created);
    const id = created.body.bn_session_id;
    const key = { 'Idempotency-Key': newKey() };
    const pretagged = (credential: string) =>
      request(`/api/integrationsv2/sessions/${id}/pretagged`, { auth: credential, body: {}, headers: key });

    const byKey = await pretagged(apiKey);
    assert.equal(byKey.status, 200, byKey.text);
    const byFirst = await pretagged(first);
    assert.equal(byFirst.status, 409, `a real second attempt, refused on its own: ${byFirst.text}`);
    assert.equal(replayed(byFirst), null, "the member does not get the key's answer");
    assert.equal(replayed(await pretagged(first)), 'true', 'the member replays their own answer');
    const bySecond = await pretagged(second);
    assert.equal(replayed(bySecond), null, "another member does not get the first member's answer");
    const again = await pretagged(apiKey);
    assert.equal(again.status, 200);
    assert.equal(replayed(again), 'true');
  });

  it('a key left in progress by a request that died is free again once its lease lapses', async () => {
    const { account, apiKey, notaryEmail } = await teamAccount();
    const body = await teamBody(notaryEmail);
    const key = newKey();
    const [apiKeyRow] = await query("SELECT id FROM api_keys WHERE account_id = $1 AND kind = 'api'", [
      account.account_id,
    ]);
    const bodySha = crypto.createHash('sha256').update(JSON.stringify(body)).digest('hex');
    const fingerprint = crypto
      .createHash('sha256')
      .update(`POST /api/integrationsv2/sessions\n${bodySha}`)
      .digest('hex');
    // What a process killed mid-request leaves behind: a claim nobody renews any more.
    await query(
      `INSERT INTO idempotency_keys (account_id, principal, key, fingerprint, state, expires_at, locked_until)
       VALUES ($1, $2, $3, $4, 'in_progress', now() + interval '24 hours', now() - interval '1 second')`,
      [account.account_id, `api:${apiKeyRow.id}`, key, fingerprint],
    );
    const started = Date.now();
    const res = await createSession(apiKey, body, { 'Idempotency-Key': key });
    assertPass(res, 'the retry runs');
    assert.ok(Date.now() - started < 10_000, 'without waiting for the dead request');
    assert.equal(replayed(await createSession(apiKey, body, { 'Idempotency-Key': key })), 'true');
  });

  it('a stored answer holds no signing URL in clear, and still replays it', async () => {
    const { apiKey, notaryEmail } = await teamAccount();
    const key = newKey();
    const body = await teamBody(notaryEmail);
    const first = await createSession(apiKey, body, { 'Idempotency-Key': key });
    assertPass(first);
    const token = first.body.bn_signing_url.split('/sign/')[1];
    const rows = await query('SELECT * FROM idempotency_keys WHERE key = $1', [key]);
    assert.equal(rows.length, 1);
    const stored = rows[0];
    assert.ok(!('response_body' in stored), 'no answer column in clear');
    for (const value of Object.values(stored)) {
      const text = Buffer.isBuffer(value) ? value.toString('latin1') : JSON.stringify(value);
      assert.ok(!text?.includes(token), 'the signing token is not stored in clear');
    }
    const replay = await createSession(apiKey, body, { 'Idempotency-Key': key });
    assert.equal(replay.body.bn_signing_url, first.body.bn_signing_url);
  });

  it('the stored answer commits with the session: when the database drops before it is stored, neither exists and the retry creates the one session', async () => {
    const { apiKey, notaryEmail } = await teamAccount();
    const body = await teamBody(notaryEmail);
    const key = `answer-fails-${crypto.randomUUID()}`;
    // The connection drops just as the answer is being stored (57P01: the server is shutting down).
    const { sequelize } = testEnvironment().runtime;
    await sequelize.query(`
      CREATE FUNCTION answer_fails() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN
        RAISE EXCEPTION ''terminating connection due to administrator command'' USING ERRCODE = ''57P01''; END';
      CREATE TRIGGER answer_fails BEFORE UPDATE ON idempotency_keys FOR EACH ROW
        WHEN (NEW.key LIKE 'answer-fails-%' AND NEW.state = 'completed') EXECUTE FUNCTION answer_fails();`);
    try {
      const lost = await createSession(apiKey, body, { 'Idempotency-Key': key });
      assert.equal(lost.status, 503, lost.text);
      assert.ok(lost.headers.get('retry-after'));
      assert.deepEqual(await sessionsWith(body.notarization_id), [], 'no session without its answer');
    } finally {
      await sequelize.query('DROP TRIGGER answer_fails ON idempotency_keys; DROP FUNCTION answer_fails();');
    }
    const retried = await createSession(apiKey, body, { 'Idempotency-Key': key });
    assertPass(retried, 'the retry runs at once: the failed request let go of its key');
    assert.equal(replayed(retried), null);
    const again = await createSession(apiKey, body, { 'Idempotency-Key': key });
    assert.equal(replayed(again), 'true');
    assert.equal(again.body.bn_session_id, retried.body.bn_session_id);
    assert.deepEqual(
      (await sessionsWith(body.notarization_id)).map((s) => s.id),
      [retried.body.bn_session_id],
    );
  });
});
