import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { b64, pdfBytes } from '../support/documents';
import { request } from '../support/http';
import { createTestAccount } from '../support/accounts';
import { sessionBody, signer } from '../support/sessions';
import { completedSession, downloadAll, inProgressSession, notaryAccount, sha256 } from './helpers';
import { recordHash } from '../../src/audit/auditChain';
import { testEnvironment } from '../support/environment';

const API = '/api/integrationsv2';
const ARTEFACTS = path.join(__dirname, '..', '..', '.data', 'screenshots', 'documents');

/** The archive as the API streams it, read whole by the test. */
async function evidenceOf(apiKey: string, id: string) {
  const res = await fetch(`${testEnvironment().apiUrl}${API}/sessions/${id}/evidence`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

describe('the evidence bundle: GET /sessions/{id}/evidence (issue 69)', function () {
  this.timeout(180_000);

  it('a test-mode act: every manifest hash matches, the PDFs are those served, the audit trail verifies; 409 before, 404 for another account', async () => {
    const notary = await notaryAccount();
    const body = await sessionBody({
      session_notary_email: notary.notaryEmail,
      notarization_id: `evidence${crypto.randomUUID().replace(/-/g, '')}`,
      all_signers: [signer(0, { authentication_type: 'kba' })],
      session_documents: [
        { name: 'deed.pdf', base64Doc: b64(await pdfBytes(1, undefined, 'Deed')) },
        { name: 'deed.pdf', base64Doc: b64(await pdfBytes(1, undefined, 'Second deed')) },
      ],
    });
    const early = await inProgressSession(
      notary.apiKey,
      await sessionBody({ session_notary_email: notary.notaryEmail }),
    );
    const refused = await request(`${API}/sessions/${early.bn_session_id}/evidence`, { auth: notary.apiKey });
    assert.equal(refused.status, 409);
    assert.equal(
      refused.body.response_message,
      'Evidence is available once the session is completed and its documents are final',
    );

    const done = await completedSession(notary.apiKey, body);
    const other = await createTestAccount();
    assert.equal((await request(`${API}/sessions/${done.id}/evidence`, { auth: other.api_key })).status, 404);

    const bundle = await evidenceOf(notary.apiKey, done.id);
    assert.equal(bundle.status, 200);
    assert.equal(bundle.type, 'application/zip');
    const files = unzipSync(new Uint8Array(bundle.bytes));
    const manifest = JSON.parse(Buffer.from(files['manifest.json']).toString());
    // Kept beside the screenshots, to read.
    fs.mkdirSync(ARTEFACTS, { recursive: true });
    fs.writeFileSync(path.join(ARTEFACTS, 'evidence-manifest.json'), Buffer.from(files['manifest.json']));
    fs.writeFileSync(path.join(ARTEFACTS, 'evidence-test-mode.zip'), bundle.bytes);
    assert.equal(manifest.bn_session_id, done.id);
    assert.equal(manifest.notarization_id, body.notarization_id);
    assert.equal(manifest.test, true);
    assert.deepEqual(
      manifest.files.map((f: { path: string }) => f.path),
      ['documents/deed.pdf', 'documents/2-deed.pdf', 'audit-trail.json', 'identity.json'],
    );
    assert.deepEqual(
      Object.keys(files).sort(),
      [...manifest.files.map((f: { path: string }) => f.path), 'manifest.json'].sort(),
    );
    for (const file of manifest.files) {
      const bytes = Buffer.from(files[file.path]);
      assert.equal(sha256(bytes), file.sha256, file.path);
      assert.equal(bytes.length, file.size_bytes, file.path);
    }
    const served = (await downloadAll(notary.apiKey, done.id)).files.map((f) => f.bytes);
    assert.ok(Buffer.from(files['documents/deed.pdf']).equals(served[0]), 'the first PDF byte for byte');
    assert.ok(Buffer.from(files['documents/2-deed.pdf']).equals(served[1]), 'the second PDF byte for byte');

    const audit = JSON.parse(Buffer.from(files['audit-trail.json']).toString());
    assert.equal(audit.verification.intact, true);
    let prev = '0'.repeat(64);
    for (const r of audit.records) {
      assert.equal(r.prev_hash, prev);
      assert.equal(recordHash(r.prev_hash, r.seq, r.event_id, r.payload), r.hash, `record ${r.seq}`);
      prev = r.hash;
    }
    const identity = JSON.parse(Buffer.from(files['identity.json']).toString());
    const [person] = identity.participants;
    assert.equal(person.role, 'signer');
    assert.equal(person.checks[0].method, 'kba');
    assert.equal(person.checks[0].outcome, 'passed');
    assert.ok(!JSON.stringify(identity).includes('question'), 'no quiz questions or answers');
  });
});
