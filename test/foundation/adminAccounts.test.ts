import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { admin } from '../support/adminCli';

describe('admin CLI: list-accounts', function () {
  this.timeout(60_000);

  it('lists the accounts oldest first with their owner and mode; --name matches its text literally, in any case', async () => {
    const token = crypto.randomBytes(4).toString('hex');
    const create = async (name: string, ...rest: string[]) => {
      const result = await admin(['create-account', '--name', name, ...rest]);
      assert.equal(result.code, 0, result.stderr);
      return result.json.account_id as string;
    };
    const percent = await create(`Title ${token} 100% Escrow`, '--admin-email', `owner-${token}@example.com`);
    const digits = await create(`Title ${token} 1000 Escrow`, '--test-mode');
    const underscore = await create(`Title ${token}_Escrow`);

    const listed = await admin(['list-accounts', '--name', token.toUpperCase()]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(
      listed.json.accounts.map((a: any) => a.id),
      [percent, digits, underscore],
      'every account with the text, oldest first',
    );
    const [first, second, third] = listed.json.accounts;
    assert.deepEqual(Object.keys(first).sort(), ['created_at', 'id', 'name', 'owner_email', 'test_mode']);
    assert.equal(first.name, `Title ${token} 100% Escrow`);
    assert.equal(first.owner_email, `owner-${token}@example.com`);
    assert.equal(first.test_mode, false);
    assert.equal(second.test_mode, true);
    assert.equal(third.owner_email, `owner+${underscore}@accounts.invalid`, 'the placeholder owner');
    assert.ok(Date.parse(first.created_at) <= Date.parse(second.created_at));
    assert.match(first.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    // LIKE's wildcards are the name's own characters here: `100%` is not `1000`, `_` is not any one character.
    const literal = async (text: string) =>
      (await admin(['list-accounts', '--name', text])).json.accounts.map((a: any) => a.id);
    assert.deepEqual(await literal(`${token} 100%`), [percent]);
    assert.deepEqual(await literal(`${token}_`), [underscore]);
    assert.deepEqual(await literal(`${token}\\`), []);

    const all = await admin(['list-accounts']);
    assert.equal(all.code, 0, all.stderr);
    const ids = all.json.accounts.map((a: any) => a.id);
    assert.ok(ids.indexOf(percent) >= 0 && ids.indexOf(percent) < ids.indexOf(underscore), 'oldest first');
  });
});
