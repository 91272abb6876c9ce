import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { createTestAccount } from '../support/accounts';
import { annotation, b64, pdfBytes, PNG_1x1, TEXT } from '../support/documents';
import { request } from '../support/http';
import { createSession, getSession } from '../support/sessions';
import { assertCreateFailure, assertPass, query, teamAccount, teamBody, UUID_RE } from './helpers';

const TEMPLATES = '/api/integrationsv2/templates';
const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

const TEMPLATE_ANNOTATIONS = [
  annotation(),
  annotation({
    fieldType: 'notary_seal',
    pageNum: 2,
    x: 300,
    y: 100,
    width: 120,
    height: 120,
    role: 'notary',
  }),
];

function createTemplate(apiKey: string, body: unknown) {
  return request(TEMPLATES, { auth: apiKey, body });
}

/** Uploads a template of fresh PDF bytes; returns the template and its bytes. */
async function uploadTemplate(apiKey: string, name = 'purchase-agreement.pdf') {
  const bytes = await pdfBytes(2, undefined, `Template ${crypto.randomUUID()}`);
  const res = await createTemplate(apiKey, {
    name,
    base64Doc: b64(bytes),
    annotations: TEMPLATE_ANNOTATIONS,
  });
  assert.equal(res.status, 201, `template upload: ${res.status} ${res.text}`);
  return { template: res.body.template, bytes };
}

/** Annotations as sent: without the default participant index, and without the id the database gives each. */
function stripDefaults(annotations: any[]) {
  return annotations.map(({ participant_index: _ignored, id: _id, ...rest }) => rest);
}

describe('templates: document_templates and applyTemplate (spec 2.1, 2.4)', function () {
  it('POST /templates answers 201 with the template', async () => {
    const { apiKey } = await teamAccount();
    const bytes = await pdfBytes(2, undefined, `Template ${crypto.randomUUID()}`);
    const res = await createTemplate(apiKey, {
      name: 'x.pdf',
      base64Doc: b64(bytes),
      annotations: TEMPLATE_ANNOTATIONS,
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.response, 'Pass');
    const t = res.body.template;
    assert.ok(t && typeof t === 'object', `template object in ${res.text}`);
    assert.match(t.template_id, UUID_RE);
    assert.equal(t.name, 'x.pdf');
    assert.equal(t.sha256, sha256(bytes));
    assert.equal(t.size_bytes, bytes.length);
    assert.equal(t.page_count, 2);
    assert.deepEqual(stripDefaults(t.annotations), TEMPLATE_ANNOTATIONS);
  });

  it("GET /templates lists the account's templates; another account does not see them", async () => {
    const { apiKey } = await teamAccount();
    const { template } = await uploadTemplate(apiKey);
    const list = await request(TEMPLATES, { auth: apiKey });
    assert.equal(list.status, 200, list.text);
    assert.ok(Array.isArray(list.body.data), `data array in ${list.text}`);
    assert.deepEqual(
      list.body.data.map((t: any) => t.template_id),
      [template.template_id],
    );
    assert.equal(list.body.pagination.total_items, 1);

    const other = await createTestAccount();
    const otherList = await request(TEMPLATES, { auth: other.api_key });
    assert.equal(otherList.status, 200);
    assert.deepEqual(otherList.body.data, [], "another account's list is empty");
  });

  it("document_templates:[id] makes a session document with the template's name and sha256", async () => {
    const { apiKey, notaryEmail } = await teamAccount();
    const { template, bytes } = await uploadTemplate(apiKey, 'closing-package.pdf');
    const body = await teamBody(notaryEmail, { document_templates: [template.template_id] });
    delete body.session_documents;
    const res = await createSession(apiKey, body);
    assertPass(res, 'create with document_templates');
    const session = await getSession(apiKey, res.body.bn_session_id);
    assert.equal(session.body.documents.length, 1);
    assert.equal(session.body.documents[0].name, 'closing-package.pdf');
    assert.equal(session.body.documents[0].content_type, 'application/pdf');
    assert.equal(session.body.documents[0].size_bytes, bytes.length);
    const rows = await query('SELECT sha256, annotations FROM documents WHERE session_id = $1', [
      res.body.bn_session_id,
    ]);
    assert.equal(rows[0].sha256, sha256(bytes), "the document has the template's bytes");
    assert.deepEqual(
      stripDefaults(rows[0].annotations),
      TEMPLATE_ANNOTATIONS,
      "and the template's annotations",
    );
  });

  it('document_templates together with session_documents gives both documents', async () => {
    const { apiKey, notaryEmail } = await teamAccount();
    const { template } = await uploadTemplate(apiKey, 'tpl.pdf');
    const res = await createSession(
      apiKey,
      await teamBody(notaryEmail, { document_templates: [template.template_id] }),
    );
    assertPass(res);
    const session = await getSession(apiKey, res.body.bn_session_id);
    assert.deepEqual(session.body.documents.map((d: any) => d.name).sort(), ['deed.pdf', 'tpl.pdf']);
  });

  it('document_templates naming an unknown id is refused, naming the id', async () => {
    const { apiKey, notaryEmail } = await teamAccount();
    const unknown = crypto.randomUUID();
    const body = await teamBody(notaryEmail, { document_templates: [unknown] });
    delete body.session_documents;
    const res = await createSession(apiKey, body);
    assertCreateFailure(res, new RegExp(unknown));
  });

  it("document_templates naming another account's template is refused, naming the id", async () => {
    const { apiKey, notaryEmail } = await teamAccount();
    const other = await createTestAccount();
    const { template } = await uploadTemplate(other.api_key);
    const body = await teamBody(notaryEmail, { document_templates: [template.template_id] });
    delete body.session_documents;
    const res = await createSession(apiKey, body);
    assertCreateFailure(res, new RegExp(template.template_id));
  });

  it("applyTemplate with the template's bytes is accepted and the document gets the template's annotations", async () => {
    const { apiKey, notaryEmail } = await teamAccount();
    const { template, bytes } = await uploadTemplate(apiKey);
    const own = annotation({ fieldType: 'date_signed', pageNum: 2 });
    const res = await createSession(
      apiKey,
      await teamBody(notaryEmail, {
        session_documents: [
          {
            name: 'signed-copy.pdf',
            base64Doc: b64(bytes),
            applyTemplate: template.template_id,
            annotations: [own],
          },
        ],
      }),
    );
    assertPass(res, 'applyTemplate with matching bytes');
    const rows = await query('SELECT name, annotations FROM documents WHERE session_id = $1', [
      res.body.bn_session_id,
    ]);
    assert.equal(rows[0].name, 'signed-copy.pdf', 'the uploaded name is kept');
    const stored = stripDefaults(rows[0].annotations);
    for (const a of TEMPLATE_ANNOTATIONS) {
      assert.ok(
        stored.some((s) => isDeepStrictEqual(s, a)),
        `template annotation ${JSON.stringify(a)} is on the document; stored ${JSON.stringify(stored)}`,
      );
    }
    assert.ok(
      stored.some((s) => isDeepStrictEqual(s, own)),
      "the document's own annotation is kept",
    );
  });

  it('applyTemplate with different bytes is refused, naming the template id', async () => {
    const { apiKey, notaryEmail } = await teamAccount();
    const { template } = await uploadTemplate(apiKey);
    const res = await createSession(
      apiKey,
      await teamBody(notaryEmail, {
        session_documents: [
          { name: 'other.pdf', base64Doc: b64(await pdfBytes(2)), applyTemplate: template.template_id },
        ],
      }),
    );
    assertCreateFailure(res, new RegExp(template.template_id));
  });

  it("applyTemplate naming another account's template is refused, naming the id", async () => {
    const { apiKey, notaryEmail } = await teamAccount();
    const other = await createTestAccount();
    const { template, bytes } = await uploadTemplate(other.api_key);
    const res = await createSession(
      apiKey,
      await teamBody(notaryEmail, {
        session_documents: [{ name: 'copy.pdf', base64Doc: b64(bytes), applyTemplate: template.template_id }],
      }),
    );
    assertCreateFailure(res, new RegExp(template.template_id));
  });

  describe('a template must be a PDF: 422', () => {
    const cases: Array<[string, () => Promise<Record<string, unknown>>]> = [
      ['PNG named .png', async () => ({ name: 'x.png', base64Doc: b64(PNG_1x1) })],
      ['PNG bytes named .pdf', async () => ({ name: 'x.pdf', base64Doc: b64(PNG_1x1) })],
      ['text named .txt', async () => ({ name: 'x.txt', base64Doc: b64(TEXT) })],
      ['not base64', async () => ({ name: 'x.pdf', base64Doc: 'not base64!!' })],
      [
        'annotation beyond its pages',
        async () => ({
          name: 'x.pdf',
          base64Doc: b64(await pdfBytes(1)),
          annotations: [annotation({ pageNum: 2 })],
        }),
      ],
    ];
    for (const [label, make] of cases) {
      it(label, async () => {
        const { apiKey } = await teamAccount();
        const res = await createTemplate(apiKey, await make());
        assert.equal(res.status, 422, `${label} — expected 422, got ${res.status} ${res.text}`);
        assert.equal(res.body.response, 'Fail');
        assert.ok(res.body.response_message, 'the 422 says why');
        const list = await request(TEMPLATES, { auth: apiKey });
        assert.deepEqual(list.body.data, [], 'no template was stored');
      });
    }
  });
});
