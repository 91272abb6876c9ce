import assert from 'node:assert/strict';
import { request } from '../support/http';
import { action, joinSession, signer, teamNotarySession, tokenOf, waitForSession } from '../support/sessions';
import { consentAndAdopt, notaryAdopts } from '../support/signing';
import { memberToken } from '../team/helpers';
import { downloadAll, pdftotext } from '../documents/helpers';

const API = '/api/integrationsv2';

describe('same-device signing: the host’s device signs for each of its signers, each for themselves (issue 61)', function () {
  this.timeout(120_000);

  it('each signer consents and adopts on the host’s link; each place is theirs to apply; the others’ links cannot', async () => {
    const { account, notary, created, id } = await teamNotarySession({
      all_signers: [signer(0), signer(1)],
      session_configurations: { same_device_signing_mode: 'all' },
    });
    await notaryAdopts(await memberToken(account.vendor_api_key, notary.email));
    const host = created.body.signing_urls[0].bn_signing_url as string;
    const other = created.body.signing_urls[1].bn_signing_url as string;
    await waitForSession(account.api_key, id, (s) => s.status === 'ready');
    assert.equal((await joinSession(host)).status, 200);
    assert.equal((await action(account.api_key, id, 'start')).status, 200);
    const token = tokenOf(host);
    const view = (await request(`/sign/${token}/signing`)).body;
    assert.deepEqual(view.signing_as, ['signer-0', 'signer-1'], 'the host’s page signs as both');

    await consentAndAdopt(host, 'First0 Last0', 0);
    const early = await request(`/sign/${token}/signatures`, {
      body: { document_id: view.documents[0].id, place_id: 'default-signer-1', signer_index: 1 },
    });
    assert.equal(early.status, 409, 'the second signer has not consented yet');
    assert.equal(early.body.response_message, 'Consent to use electronic records and signatures first');
    await consentAndAdopt(host, 'First1 Last1', 1);
    const notTheHost = await request(`/sign/${tokenOf(other)}/consent`, {
      body: { accepted: true, signer_index: 0 },
    });
    assert.ok([403, 409].includes(notTheHost.status), notTheHost.text);
    const wrongSigner = await request(`/sign/${token}/signatures`, {
      body: { document_id: view.documents[0].id, place_id: 'default-signer-1', signer_index: 0 },
    });
    assert.equal(wrongSigner.status, 403, 'signer 0 cannot sign signer 1’s place');
    for (const index of [0, 1]) {
      const applied = await request(`/sign/${token}/signatures`, {
        body: { document_id: view.documents[0].id, place_id: `default-signer-${index}`, signer_index: index },
      });
      assert.equal(applied.status, 200, applied.text);
    }
    const session = (await request(`${API}/sessions/${id}`, { auth: account.api_key })).body;
    assert.ok(
      session.participants.every((p: any) => p.consented_at && p.signed_at),
      JSON.stringify(session.participants),
    );
    assert.equal((await action(account.api_key, id, 'complete')).status, 200);
    await action(account.api_key, id, 'release_documents');
    await waitForSession(account.api_key, id, (s) => s.documents_status === 'released', 60_000);
    const { files } = await downloadAll(account.api_key, id);
    const text = (await pdftotext(files[0].bytes)).replace(/\s+/g, ' ');
    assert.match(text, /First0 Last0 .*signed electronically/);
    assert.match(text, /First1 Last1 .*signed electronically/);
    assert.doesNotMatch(text, /TEST SIGNATURE/, 'every place was signed');
  });

  it('a typed mark with control characters, or a drawn one past its limits, is a 400, never a 500', async () => {
    const { account, created, id } = await teamNotarySession();
    const link = created.body.bn_signing_url as string;
    await waitForSession(account.api_key, id, (s) => s.status === 'ready');
    assert.equal((await joinSession(link)).status, 200);
    const token = tokenOf(link);
    const preview = await request(
      `/sign/${token}/signature_preview?style=caveat&text=${encodeURIComponent('Ann\u0002')}`,
    );
    assert.equal(preview.status, 400, preview.text);
    assert.equal((await request(`/sign/${token}/consent`, { body: { accepted: true } })).status, 200);
    const typed = (text: string) => ({ method: 'typed', style: 'caveat', text });
    const control = await request(`/sign/${token}/adopted_signature`, {
      body: { signature: typed('Ann\u0000Lee'), initials: typed('AL') },
    });
    assert.equal(control.status, 400, control.text);
    const stroke = Array.from({ length: 2001 }, (_, i) => [i % 600, i % 150]);
    const tooMany = await request(`/sign/${token}/adopted_signature`, {
      body: { signature: { method: 'drawn', strokes: [stroke, stroke] }, initials: typed('AL') },
    });
    assert.equal(tooMany.status, 400, tooMany.text);
    assert.match(tooMany.body.response_message, /at most 4000 points/);
  });
});
