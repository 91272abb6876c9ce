import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createSession, notarizationId, sessionBody } from '../support/sessions';
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
