import assert from 'node:assert/strict';
import type Joi from 'joi';
import { request } from '../support/http';
import { sessionBody, signer, tokenOf } from '../support/sessions';
import { applyEverywhere, consentAndAdopt } from '../support/signing';
import { memberToken } from '../team/helpers';
import { inProgressSession, notaryAccount } from '../documents/helpers';
import { signingViewSchema } from '../../src/http/routes/signingSchemas';
import { journeySchema } from '../../src/http/routes/participants';
import { workListResponse } from '../../src/http/routes/workListSchema';

/** What the OpenAPI document says of an answer, held against a real one: no field it does not describe. */
function assertDescribed(schema: Joi.Schema, body: unknown, what: string): void {
  const { error } = schema.validate(body, { allowUnknown: false, abortEarly: false });
  assert.equal(error?.message, undefined, `${what} differs from its OpenAPI schema`);
}

// The pages' JSON is declared once in TypeScript (core/wire/); its OpenAPI description is a second text,
// held here against what the service answers.
describe('the JSON the pages read is what the OpenAPI document describes', function () {
  this.timeout(120_000);

  it('the signing view, the journey and the notary’s work list, mid-act', async () => {
    const notary = await notaryAccount();
    const body = await sessionBody({
      session_notary_email: notary.notaryEmail,
      all_signers: [signer(0, { first_name: 'Wendy', last_name: 'Wire' }), signer(1)],
    });
    const created = await inProgressSession(notary.apiKey, body);
    const [link] = created.signing_urls.map((s: { bn_signing_url: string }) => s.bn_signing_url);
    await consentAndAdopt(link, 'Wendy Wire');
    await applyEverywhere(link);

    const view = await request(`/sign/${tokenOf(link)}/signing`);
    assert.equal(view.status, 200, view.text);
    assert.ok(view.body.documents[0].places.some((p: { applied_at: string | null }) => p.applied_at));
    assertDescribed(signingViewSchema, view.body, 'the signing view');

    const journey = await request(`/sign/${tokenOf(link)}`, { headers: { accept: 'application/json' } });
    assert.equal(journey.status, 200, journey.text);
    assert.equal(journey.body.step, 'in_session');
    assertDescribed(journeySchema, journey.body, 'the journey');

    const work = await request('/api/integrationsv2/me/sessions', {
      auth: await memberToken(notary.vendorKey, notary.notaryEmail),
    });
    assert.equal(work.status, 200, work.text);
    assert.ok(
      work.body.sessions.some((s: { bn_session_id: string }) => s.bn_session_id === created.bn_session_id),
    );
    assertDescribed(workListResponse, work.body, 'the work list');
  });
});
