import assert from 'node:assert/strict';
import http from 'node:http';
import { createTestAccount } from '../support/accounts';
import { testEnvironment } from '../support/environment';
import { request } from '../support/http';
import { createSession, sessionBody, signer } from '../support/sessions';
import { COMMISSION, invite, inviteBody, TEAM } from '../team/helpers';

/** Text PostgreSQL cannot store, or a seal cannot print, is the route's own 4xx naming the field. */
describe('input that would break a dependency', () => {
  it('control characters in names, counties and commission numbers: 422 naming the field', async () => {
    const account = await createTestAccount({ autoOnboarding: true });
    for (const [field, value] of [
      ['first_name', 'Ni\u0001na'],
      ['last_name', 'Line\nbreak'],
      ['county', 'Tra\u0007vis'],
      ['commission_number', 'TX\u001b[31m1'],
    ]) {
      const res = await invite(account.vendor_api_key, inviteBody({ ...COMMISSION, [field]: value }));
      assert.equal(res.status, 422, `${field}: ${res.text}`);
      assert.deepEqual(res.body.errors, [
        { param: field, msg: `${field} must not contain control characters` },
      ]);
    }
  });

  it('NUL and unpaired surrogates anywhere in a JSON body: the route’s 4xx naming the field', async () => {
    const account = await createTestAccount();
    const cases: Array<[string, string, () => Promise<{ status: number; body: any; text: string }>]> = [
      [
        'a signer name (create: 403, spec 7.1 body)',
        'all_signers.0.first_name',
        async () =>
          createSession(
            account.api_key,
            await sessionBody({ all_signers: [signer(0, { first_name: 'A\u0000' })] }),
          ),
      ],
      [
        'a lone high surrogate in a loan detail',
        'loan_details.loan_number',
        async () =>
          createSession(account.api_key, await sessionBody({ loan_details: { loan_number: '\ud800' } })),
      ],
      [
        'free-form metadata (invite: 422)',
        'optional_metadata.note',
        async () => invite(account.vendor_api_key, inviteBody({ optional_metadata: { note: 'x\udc00y' } })),
      ],
      [
        'an object key',
        'optional_metadata.k\u0000',
        async () => invite(account.vendor_api_key, inviteBody({ optional_metadata: { 'k\u0000': 1 } })),
      ],
      [
        'a query parameter',
        'email',
        async () => request(`${TEAM}?email=%00`, { auth: account.vendor_api_key }),
      ],
    ];
    for (const [what, field, send] of cases) {
      const res = await send();
      assert.ok(res.status >= 400 && res.status < 500, `${what}: ${res.status} ${res.text}`);
      assert.equal(res.body.response, 'Fail', what);
      const named = res.body.errors?.[0]?.param ?? res.body.response_message;
      assert.ok(String(named).includes(field), `${what} names ${field}: ${res.text}`);
    }
    // The create failure keeps the spec 7.1 shape.
    const create = await createSession(
      account.api_key,
      await sessionBody({ all_signers: [signer(0, { last_name: '\u0000' })] }),
    );
    assert.equal(create.status, 403);
    assert.deepEqual(Object.keys(create.body).sort(), [
      'bn_session_id',
      'bn_signing_url',
      'notarization_id',
      'response',
      'response_message',
    ]);
  });

  it('TRACE and other unimplemented methods get the JSON 405 shape', async () => {
    for (const method of ['TRACE', 'PATCH', 'PUT']) {
      // fetch refuses to send TRACE, so plain node:http.
      const res = await new Promise<{ status: number; type: string; text: string }>((resolve, reject) => {
        const req = http.request(
          `${testEnvironment().apiUrl}/api/integrationsv2/sessions`,
          { method },
          (r) => {
            let text = '';
            r.on('data', (chunk) => (text += chunk));
            r.on('end', () =>
              resolve({ status: r.statusCode!, type: r.headers['content-type'] ?? '', text }),
            );
          },
        );
        req.on('error', reject);
        req.end();
      });
      assert.equal(res.status, 405, `${method}: ${res.text}`);
      assert.match(res.type, /json/);
      assert.deepEqual(JSON.parse(res.text), { response: 'Fail', response_message: 'Method not allowed' });
    }
  });
});
