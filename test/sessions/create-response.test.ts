import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { defineSearchAttributeKey } from '@temporalio/common';
import { testEnvironment } from '../support/environment';
import { createSession, signer, tokenOf, waitForSession } from '../support/sessions';
import { assertPass, query, signingView, teamAccount, teamBody, UUID_RE } from './helpers';
import { eventually } from '../support/eventually';

const PUBLIC_BASE_URL = 'https://notary.test';
const WHITE_LABEL = 'https://sign.acme.test';

const BnSessionId = defineSearchAttributeKey('BnSessionId', 'KEYWORD');
const NotarizationId = defineSearchAttributeKey('NotarizationId', 'KEYWORD');
const SessionStatus = defineSearchAttributeKey('SessionStatus', 'KEYWORD');

function witness(i: number) {
  return {
    email: `witness${i}-${crypto.randomUUID().slice(0, 6)}@example.com`,
    firstname: `Wit${i}`,
    lastname: `Ness${i}`,
  };
}

function assertSigningUrl(entry: any, base: string, what: string) {
  assert.ok(entry && typeof entry === 'object', `${what} — expected an object, got ${JSON.stringify(entry)}`);
  assert.match(
    entry.bn_signing_url,
    /^\/sign\/[^/?#\s]+$/,
    `${what}: bn_signing_url is relative /sign/{token}`,
  );
  assert.equal(
    entry.full_signing_url,
    `${base}${entry.bn_signing_url}`,
    `${what}: full_signing_url = base + bn_signing_url`,
  );
}

/** Checks every field of both response shapes (spec 2.7) against the request; returns all the URLs. */
async function checkCreateResponse(res: any, request: Record<string, any>, base: string) {
  assertPass(res, 'create');
  const body = res.body;
  const signers = request.all_signers as Array<Record<string, string>>;
  const invited = (request.witnesses?.invited_witness_details ?? []) as Array<Record<string, string>>;
  const n = signers.length;

  assert.equal(typeof body.response_message, 'string');
  assert.ok(body.response_message.length > 0, 'response_message is a human-readable status');
  assert.equal(body.notarization_id, request.notarization_id, 'notarization_id is echoed');
  assert.match(body.bn_session_id, UUID_RE, 'bn_session_id is a UUID');

  // Remote-session shape.
  assertSigningUrl(body, base, 'primary signer');
  assert.ok(
    Array.isArray(body.additional_signers_signing_urls),
    'additional_signers_signing_urls is an array',
  );
  assert.equal(
    body.additional_signers_signing_urls.length,
    n - 1,
    'one additional URL per signer after the first',
  );
  body.additional_signers_signing_urls.forEach((u: any, k: number) =>
    assertSigningUrl(u, base, `additional[${k}]`),
  );

  // Quick-start shape.
  assert.ok(Array.isArray(body.signing_urls), 'signing_urls is an array');
  assert.equal(body.signing_urls.length, n, 'one signing_urls entry per signer');
  body.signing_urls.forEach((u: any, i: number) => {
    assertSigningUrl(u, base, `signing_urls[${i}]`);
    assert.equal(u.signer_index, i, `signing_urls[${i}].signer_index`);
  });
  assert.equal(
    body.signing_urls[0].bn_signing_url,
    body.bn_signing_url,
    'signing_urls[0] is the primary signer',
  );
  assert.equal(body.signing_urls[0].full_signing_url, body.full_signing_url);
  for (let k = 0; k < n - 1; k++) {
    assert.equal(
      body.additional_signers_signing_urls[k].bn_signing_url,
      body.signing_urls[k + 1].bn_signing_url,
      `additional_signers_signing_urls[${k}] is signer ${k + 1}`,
    );
  }

  // Invited witnesses only (network witnesses get no URL); the spelling is the spec's.
  assert.ok(
    Array.isArray(body.witnessess_signing_urls),
    'witnessess_signing_urls (that spelling) is an array',
  );
  assert.equal(
    body.witnessess_signing_urls.length,
    invited.length,
    'one URL per invited witness, none for network ones',
  );
  body.witnessess_signing_urls.forEach((u: any, j: number) =>
    assertSigningUrl(u, base, `witnessess_signing_urls[${j}]`),
  );

  const all = [
    ...body.signing_urls.map((u: any) => u.bn_signing_url),
    ...body.witnessess_signing_urls.map((u: any) => u.bn_signing_url),
  ] as string[];
  assert.equal(new Set(all.map(tokenOf)).size, all.length, 'every participant has a distinct token');

  // Each URL reaches its own participant, in the order of the request.
  for (let i = 0; i < n; i++) {
    const view = await signingView(tokenOf(body.signing_urls[i].bn_signing_url));
    assert.equal(view.status, 200, `GET signing URL of signer ${i}: ${view.text}`);
    assert.equal(view.body.bn_session_id, body.bn_session_id);
    assert.equal(view.body.role, 'signer');
    assert.equal(view.body.index, i, `signing_urls[${i}] belongs to signer ${i}`);
    assert.equal(view.body.first_name, signers[i].first_name);
    assert.equal(view.body.last_name, signers[i].last_name);
  }
  for (let j = 0; j < invited.length; j++) {
    const view = await signingView(tokenOf(body.witnessess_signing_urls[j].bn_signing_url));
    assert.equal(view.status, 200, `GET signing URL of witness ${j}: ${view.text}`);
    assert.equal(view.body.role, 'witness');
    assert.equal(view.body.index, j, `witnessess_signing_urls[${j}] belongs to invited witness ${j}`);
    assert.equal(view.body.first_name, invited[j].firstname);
  }
  return all.map(tokenOf);
}

describe('POST /sessions: the create response (spec 2.7, contract §2–3)', function () {
  for (const n of [1, 2, 5]) {
    it(`${n} signer(s): both response shapes, URLs in all_signers order on PUBLIC_BASE_URL`, async () => {
      const { apiKey, notaryEmail } = await teamAccount();
      const request = await teamBody(notaryEmail, {
        all_signers: Array.from({ length: n }, (_, i) => signer(i)),
      });
      const res = await createSession(apiKey, request);
      assert.equal(testEnvironment().config.publicBaseUrl, PUBLIC_BASE_URL, 'test setting');
      await checkCreateResponse(res, request, PUBLIC_BASE_URL);
      assert.deepEqual(res.body.witnessess_signing_urls, [], 'no witnesses, no witness URLs');
    });
  }

  it('invited witnesses get URLs in their order; network witnesses (number_of_service_witnesses) get none', async () => {
    const { apiKey, notaryEmail } = await teamAccount();
    const request = await teamBody(notaryEmail, {
      all_signers: [signer(0), signer(1)],
      witnesses: {
        number_of_service_witnesses: 2,
        service_witness_id_auth_required: true,
        invited_witness_details: [witness(0), witness(1), witness(2)],
      },
    });
    const res = await createSession(apiKey, request);
    await checkCreateResponse(res, request, PUBLIC_BASE_URL);
    assert.equal(res.body.witnessess_signing_urls.length, 3);
    const participants = await query(
      'SELECT role, index FROM participants WHERE session_id = $1 ORDER BY role, index',
      [res.body.bn_session_id],
    );
    assert.deepEqual(
      participants.map((p) => `${p.role}${p.index}`),
      ['signer0', 'signer1', 'witness0', 'witness1', 'witness2'],
      'participants are the signers and the invited witnesses only',
    );
  });

  it("full_signing_url uses the account's white-label base URL when it has one", async () => {
    const { apiKey, notaryEmail } = await teamAccount({ whiteLabelBaseUrl: WHITE_LABEL });
    const request = await teamBody(notaryEmail, {
      all_signers: [signer(0), signer(1), signer(2)],
      witnesses: { invited_witness_details: [witness(0)] },
    });
    const res = await createSession(apiKey, request);
    await checkCreateResponse(res, request, WHITE_LABEL);
    assert.ok(!res.text.includes(PUBLIC_BASE_URL), 'no URL of a white-label account is on PUBLIC_BASE_URL');
  });

  it('tokens are stored hashed: no participants row contains a token in clear', async () => {
    const { apiKey, notaryEmail } = await teamAccount();
    const request = await teamBody(notaryEmail, {
      all_signers: [signer(0), signer(1)],
      witnesses: { invited_witness_details: [witness(0)] },
    });
    const res = await createSession(apiKey, request);
    const tokens = await checkCreateResponse(res, request, PUBLIC_BASE_URL);
    const rows = await query<{ row: string }>(
      `SELECT row_to_json(p)::text AS row FROM participants p WHERE session_id = $1`,
      [res.body.bn_session_id],
    );
    assert.equal(rows.length, 3, 'one participants row per signer and invited witness');
    for (const { row } of rows) {
      for (const token of tokens) {
        assert.ok(!row.includes(token), `participants row holds a token in clear: ${row}`);
        assert.ok(
          !row.includes(Buffer.from(token).toString('hex')),
          `participants row holds a token (hex-encoded) in clear: ${row}`,
        );
      }
    }
  });

  it("the workflow 'session-{id}' exists with search attributes BnSessionId, NotarizationId, SessionStatus", async () => {
    const { apiKey, notaryEmail } = await teamAccount();
    const request = await teamBody(notaryEmail);
    const res = await createSession(apiKey, request);
    assertPass(res);
    const id = res.body.bn_session_id;
    const session = await waitForSession(apiKey, id, (s) => s.status === 'ready');

    const handle = testEnvironment().runtime.temporal.client.workflow.getHandle(`session-${id}`);
    const attrs = await eventually(
      async () => {
        const description = await handle.describe();
        assert.equal(description.workflowId, `session-${id}`);
        const typed = description.typedSearchAttributes;
        return {
          bn: typed.get(BnSessionId),
          nid: typed.get(NotarizationId),
          status: typed.get(SessionStatus),
        };
      },
      (a) => a.status === session.status,
      'the SessionStatus search attribute to follow the session',
    );
    assert.equal(attrs.bn, id, 'BnSessionId search attribute');
    assert.equal(attrs.nid, request.notarization_id, 'NotarizationId search attribute');
    assert.equal(attrs.status, 'ready', 'SessionStatus search attribute follows the session status');
  });
});
