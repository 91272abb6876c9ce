import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createLogger } from '../../src/logger';
import { createTestAccount } from '../support/accounts';
import { testEnvironment } from '../support/environment';
import { startSecondApp, type SecondApp } from '../support/secondApp';
import { inviteBody } from '../team/helpers';

/** An API whose log lines (pino JSON, level info) are kept for the test to read. */
async function appWithCapturedLog(): Promise<{ app: SecondApp; log: () => string }> {
  const lines: string[] = [];
  const logger = createLogger('info', 'log-test', { write: (line: string) => lines.push(line) });
  const app = await startSecondApp({}, { logger });
  return { app, log: () => lines.join('') };
}

describe('secrets and personal data stay out of the log', () => {
  let app: SecondApp;
  let log: () => string;
  before(async () => ({ app, log } = await appWithCapturedLog()));
  after(() => app.close());

  it('a request that fails in the database logs the failure, never its bind parameters or row values', async () => {
    const probe = `log-probe-${crypto.randomUUID()}`;
    const sequelize = testEnvironment().runtime.sequelize;
    // The database refuses this one insert, the way a failing query would, with the person's data bound to it.
    await sequelize.query(`
      CREATE OR REPLACE FUNCTION refuse_log_probe() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'refused by the log probe'; END $$ LANGUAGE plpgsql;
      CREATE TRIGGER refuse_log_probe BEFORE INSERT ON account_members
        FOR EACH ROW WHEN (NEW.vendor_user_id = '${probe}') EXECUTE FUNCTION refuse_log_probe();`);
    try {
      const account = await createTestAccount();
      const body = inviteBody({
        first_name: 'Privatissima',
        last_name: 'Personaldata',
        vendor_user_id: probe,
        optional_metadata: { ssn_last4: '4321-secret' },
      });
      const res = await fetch(`${app.url}/api/integrationsv2/team_members/invite`, {
        method: 'POST',
        headers: { authorization: `Bearer ${account.vendor_api_key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 500, await res.text());
      const text = log();
      assert.match(text, /refused by the log probe/, 'the failure itself is logged');
      for (const secret of [
        body.email,
        'Privatissima',
        'Personaldata',
        '4321-secret',
        account.vendor_api_key,
      ]) {
        assert.ok(!text.includes(secret), `the log must not contain ${secret}:\n${text}`);
      }
      assert.ok(!text.includes('"parameters"'), 'no bind parameters');
    } finally {
      await sequelize.query(`
        DROP TRIGGER IF EXISTS refuse_log_probe ON account_members;
        DROP FUNCTION IF EXISTS refuse_log_probe();`);
    }
  });

  it('the access log names signing tokens, login links and download signatures, never their values', async () => {
    const token = `tok${crypto.randomBytes(16).toString('hex')}`;
    const linkId = crypto.randomUUID();
    const key = `key${crypto.randomBytes(16).toString('hex')}`;
    const signature = `sig${crypto.randomBytes(16).toString('hex')}`;
    for (const path of [
      `/sign/${token}`,
      `/sign/${token}/join`,
      `/auto/${linkId}?key=${key}`,
      `/api/integrationsv2/signed_documents/${crypto.randomUUID()}/download?expires=1&signature=${signature}`,
    ]) {
      await fetch(`${app.url}${path}`);
    }
    const text = log();
    assert.match(text, /"path":"\/sign\/:token"/);
    assert.match(text, /"path":"\/auto\/:login_link_id"/);
    for (const secret of [token, linkId, key, signature]) {
      assert.ok(!text.includes(secret), `the log must not contain ${secret}:\n${text}`);
    }
  });
});
