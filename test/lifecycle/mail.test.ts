import assert from 'node:assert/strict';
import { createTestAccount } from '../support/accounts';
import { testEnvironment } from '../support/environment';
import { eventually } from '../support/eventually';
import { createSession, sessionBody, signer } from '../support/sessions';

/** The invitations of these new sessions, once every one has reached the mail server. */
async function invitationsOf(apiKey: string, sessions: number) {
  const signers = Array.from({ length: sessions }, () => [signer(0), signer(1)]);
  const bodies = await Promise.all(
    signers.map((all_signers) => sessionBody({ all_signers, state_specific_notary: 'NE' })),
  );
  const created = await Promise.all(bodies.map((body) => createSession(apiKey, body)));
  assert.deepEqual(
    created.map((r) => r.status),
    created.map(() => 200),
  );
  const addresses = new Set(signers.flat().map((s) => s.email));
  const smtp = testEnvironment().smtp;
  return eventually(
    async () => smtp.messages.filter((m) => addresses.has(m.to)),
    (mails) => mails.length === addresses.size,
    `the ${addresses.size} invitations at the mail server`,
    { timeoutMs: 60_000 },
  );
}

describe('invitation mail', function () {
  this.timeout(120_000);

  it('a burst of sessions shares a few pooled SMTP connections instead of one per e-mail', async () => {
    const account = await createTestAccount();
    const smtp = testEnvironment().smtp;
    smtp.resetPeak();
    const mails = await invitationsOf(account.api_key, 30);
    assert.ok(smtp.peakOpenConnections <= 5, `${smtp.peakOpenConnections} connections open at once`);
    const connections = new Set(mails.map((m) => m.connectionId)).size;
    assert.ok(connections <= 5, `${mails.length} invitations came over ${connections} connections`);
  });

  it('invitations still go out after the mail server ended the pooled connections', async () => {
    const account = await createTestAccount();
    const smtp = testEnvironment().smtp;
    await invitationsOf(account.api_key, 2);
    const dropped = smtp.dropConnections();
    assert.ok(dropped.length > 0, 'the pool kept its connections open');
    await eventually(
      async () => dropped.filter((id) => smtp.openConnections.has(id)),
      (open) => open.length === 0,
      'the dropped connections closed',
    );
    const mails = await invitationsOf(account.api_key, 2);
    assert.equal(mails.length, 4);
    assert.ok(mails.every((m) => !dropped.includes(m.connectionId)));
  });
});
