import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { annotation, b64, docxBytes, JPEG_1x1, MB10, pdfBytes, PNG_1x1, TEXT } from '../support/documents';
import { request } from '../support/http';
import { createSession, getSession } from '../support/sessions';
import {
  assertCreateFailure,
  assertPass,
  inProgressSession,
  query,
  SESSIONS,
  teamAccount,
  teamBody,
  UUID_RE,
} from './helpers';

const CONTENT_TYPES = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  txt: 'text/plain',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

/** A PDF whose bytes no other test produces. */
const uniquePdf = (pages = 1) => pdfBytes(pages, undefined, `Unique ${crypto.randomUUID()}`);

function addDocuments(apiKey: string, id: string, body: unknown) {
  return request(`${SESSIONS}/${id}/documents`, { auth: apiKey, body });
}

async function documentRows(sessionId: string) {
  return query(
    'SELECT name, content_type, size_bytes, sha256, blob_id, annotations FROM documents WHERE session_id = $1 ORDER BY position',
    [sessionId],
  );
}

describe('session documents (spec 2.4, 4.3, 8)', function () {
  let apiKey: string;
  let accountId: string;
  let notaryEmail: string;

  before(async () => {
    const team = await teamAccount();
    apiKey = team.apiKey;
    accountId = team.account.account_id;
    notaryEmail = team.notaryEmail;
  });

  const withDocs = (session_documents: unknown[], overrides: Record<string, unknown> = {}) =>
    teamBody(notaryEmail, { session_documents, ...overrides });

  describe('size limit: 10 MB = 10 × 1024 × 1024 bytes decoded', () => {
    it('a document of exactly 10 MB is accepted', async () => {
      const bytes = await pdfBytes(1, MB10);
      assert.equal(bytes.length, MB10);
      const res = await createSession(apiKey, await withDocs([{ name: 'exact.pdf', base64Doc: b64(bytes) }]));
      assertPass(res, '10 MB document');
      const session = await getSession(apiKey, res.body.bn_session_id);
      assert.equal(session.body.documents[0].size_bytes, MB10);
    });

    it('a document of 10 MB + 1 byte is refused', async () => {
      const res = await createSession(
        apiKey,
        await withDocs([{ name: 'big.pdf', base64Doc: b64(await pdfBytes(1, MB10 + 1)) }]),
      );
      assertCreateFailure(res, 'Document exceeds maximum file size');
    });

    it('a second, too-large document is refused too', async () => {
      const res = await createSession(
        apiKey,
        await withDocs([
          { name: 'small.pdf', base64Doc: b64(await pdfBytes(1)) },
          { name: 'big.pdf', base64Doc: b64(await pdfBytes(1, MB10 + 1)) },
        ]),
      );
      assertCreateFailure(res, 'Document exceeds maximum file size');
    });
  });

  describe('base64Doc must be strict base64', () => {
    const cases: Array<[string, () => Promise<string>]> = [
      ['not base64 at all', async () => 'not base64!!'],
      [
        'base64 with a line break',
        async () => {
          const s = b64(await pdfBytes(1));
          return `${s.slice(0, 76)}\n${s.slice(76)}`;
        },
      ],
      ['a data: URI', async () => `data:application/pdf;base64,${b64(await pdfBytes(1))}`],
    ];
    for (const [label, make] of cases) {
      it(`${label} is refused, naming session_documents[0].base64Doc`, async () => {
        const res = await createSession(
          apiKey,
          await withDocs([{ name: 'deed.pdf', base64Doc: await make() }]),
        );
        assertCreateFailure(res, /session_documents\[0\]\.base64Doc/, label);
      });
    }
  });

  describe('content must match the extension', () => {
    const cases: Array<[string, string, () => Promise<Buffer> | Buffer]> = [
      ['PNG bytes named .pdf', 'scan.pdf', () => PNG_1x1],
      ['PDF bytes named .png', 'scan.png', () => pdfBytes(1)],
      ['text named .docx', 'letter.docx', () => TEXT],
      ['PDF bytes named .txt', 'notes.txt', () => pdfBytes(1)],
      ['JPEG bytes named .png', 'photo.png', () => JPEG_1x1],
    ];
    for (const [label, name, make] of cases) {
      it(`${label} is refused, naming session_documents[0]`, async () => {
        const res = await createSession(apiKey, await withDocs([{ name, base64Doc: b64(await make()) }]));
        assertCreateFailure(res, /session_documents\[0\]/, label);
      });
    }

    it('the failing document is named by its index', async () => {
      const res = await createSession(
        apiKey,
        await withDocs([
          { name: 'ok.pdf', base64Doc: b64(await pdfBytes(1)) },
          { name: 'bad.pdf', base64Doc: b64(PNG_1x1) },
        ]),
      );
      assertCreateFailure(res, /session_documents\[1\]/);
    });
  });

  it('PDF, PNG, JPG/.jpeg, TXT and DOCX are accepted with their content types, sizes and sha256', async () => {
    const docx = docxBytes();
    const pdf = await uniquePdf();
    const uploads = [
      { name: 'deed.pdf', bytes: pdf, type: CONTENT_TYPES.pdf },
      { name: 'id.png', bytes: PNG_1x1, type: CONTENT_TYPES.png },
      { name: 'photo.jpg', bytes: JPEG_1x1, type: CONTENT_TYPES.jpeg },
      { name: 'selfie.JPEG', bytes: JPEG_1x1, type: CONTENT_TYPES.jpeg },
      { name: 'notes.txt', bytes: TEXT, type: CONTENT_TYPES.txt },
      { name: 'poa.docx', bytes: docx, type: CONTENT_TYPES.docx },
    ];
    const res = await createSession(
      apiKey,
      await withDocs(uploads.map((u) => ({ name: u.name, base64Doc: b64(u.bytes) }))),
    );
    assertPass(res, 'mixed formats');
    const session = await getSession(apiKey, res.body.bn_session_id);
    assert.equal(session.body.documents.length, uploads.length);
    session.body.documents.forEach((d: any, i: number) => {
      assert.match(d.document_id, UUID_RE);
      assert.equal(d.name, uploads[i].name, `document ${i} name`);
      assert.ok(
        d.content_type === uploads[i].type || d.content_type.startsWith(`${uploads[i].type};`),
        `document ${i} (${uploads[i].name}) content_type — expected ${uploads[i].type}, got ${d.content_type}`,
      );
      assert.equal(d.size_bytes, uploads[i].bytes.length, `document ${i} size_bytes`);
    });
    const rows = await documentRows(res.body.bn_session_id);
    rows.forEach((row, i) => {
      assert.equal(row.sha256, sha256(uploads[i].bytes), `documents.sha256 of ${uploads[i].name}`);
      assert.equal(row.size_bytes, uploads[i].bytes.length, `documents.size_bytes of ${uploads[i].name}`);
    });
  });

  it('the same bytes uploaded twice in one account are stored once', async () => {
    const bytes = await uniquePdf(2);
    const hash = sha256(bytes);
    const first = await createSession(apiKey, await withDocs([{ name: 'a.pdf', base64Doc: b64(bytes) }]));
    assertPass(first);
    const second = await createSession(
      apiKey,
      await withDocs([
        { name: 'b.pdf', base64Doc: b64(bytes) },
        { name: 'c.pdf', base64Doc: b64(bytes) },
      ]),
    );
    assertPass(second);
    const blobs = await query<{ n: number }>(
      'SELECT count(*)::int AS n FROM blobs WHERE account_id = $1 AND sha256 = $2',
      [accountId, hash],
    );
    assert.equal(blobs[0].n, 1, 'one blob per account and content');
    const docs = await query<{ n: number; blobs: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT d.blob_id)::int AS blobs FROM documents d
         JOIN sessions s ON s.id = d.session_id WHERE s.account_id = $1 AND d.sha256 = $2`,
      [accountId, hash],
    );
    assert.deepEqual(docs[0], { n: 3, blobs: 1 }, 'three documents share the one blob');
  });

  describe('annotations', () => {
    it('a pageNum beyond the PDF pages is refused, naming the field', async () => {
      const res = await createSession(
        apiKey,
        await withDocs([
          {
            name: 'deed.pdf',
            base64Doc: b64(await pdfBytes(2)),
            annotations: [annotation({ pageNum: 2 }), annotation({ pageNum: 3 })],
          },
        ]),
      );
      assertCreateFailure(res, /session_documents\[0\]\.annotations\[1\]\.pageNum/);
    });

    it('a fieldType not in the set is refused, naming the field', async () => {
      const res = await createSession(
        apiKey,
        await withDocs([
          {
            name: 'deed.pdf',
            base64Doc: b64(await pdfBytes(1)),
            annotations: [annotation({ fieldType: 'stamp' })],
          },
        ]),
      );
      assertCreateFailure(res, /session_documents\[0\]\.annotations\[0\]\.fieldType/);
    });

    it('a role not in the set is refused, naming the field', async () => {
      const res = await createSession(
        apiKey,
        await withDocs([
          {
            name: 'deed.pdf',
            base64Doc: b64(await pdfBytes(1)),
            annotations: [annotation({ role: 'lawyer' })],
          },
        ]),
      );
      assertCreateFailure(res, /session_documents\[0\]\.annotations\[0\]\.role/);
    });

    it('an annotation missing a required field (width) is refused, naming the field', async () => {
      const a: Record<string, unknown> = annotation();
      delete a.width;
      const res = await createSession(
        apiKey,
        await withDocs([{ name: 'deed.pdf', base64Doc: b64(await pdfBytes(1)), annotations: [a] }]),
      );
      assertCreateFailure(res, /session_documents\[0\]\.annotations\[0\]\.width/);
    });

    it('a valid annotation is accepted and recorded with its document', async () => {
      const a = annotation({ fieldType: 'initials', pageNum: 2, role: 'witness' });
      const res = await createSession(
        apiKey,
        await withDocs([{ name: 'deed.pdf', base64Doc: b64(await pdfBytes(2)), annotations: [a] }]),
      );
      assertPass(res);
      const rows = await documentRows(res.body.bn_session_id);
      assert.equal(rows[0].annotations.length, 1);
      assert.match(rows[0].annotations[0].id, /^[0-9a-f]{12}$/, 'the database gives each annotation an id');
      assert.deepEqual(
        { ...rows[0].annotations[0], participant_index: undefined, id: undefined },
        { ...a, participant_index: undefined, id: undefined },
        'the annotation is stored as sent',
      );
    });
  });

  describe('POST /sessions/{id}/documents (spec 4.3)', () => {
    it('adds a document and returns the session document list with it', async () => {
      const created = await createSession(
        apiKey,
        await withDocs([{ name: 'first.pdf', base64Doc: b64(await pdfBytes(1)) }]),
      );
      assertPass(created);
      const id = created.body.bn_session_id;
      const added = await uniquePdf(3);
      const res = await addDocuments(apiKey, id, {
        session_documents: [
          { name: 'second.pdf', base64Doc: b64(added), annotations: [annotation({ pageNum: 3 })] },
        ],
      });
      assertPass(res, 'add document');
      assert.ok(Array.isArray(res.body.documents), `documents list in the answer: ${res.text}`);
      assert.deepEqual(
        res.body.documents.map((d: any) => d.name),
        ['first.pdf', 'second.pdf'],
        'the list holds the existing and the new document, in order',
      );
      const second = res.body.documents[1];
      assert.match(second.document_id, UUID_RE);
      assert.equal(second.content_type, CONTENT_TYPES.pdf);
      assert.equal(second.size_bytes, added.length);
      const session = await getSession(apiKey, id);
      assert.deepEqual(
        session.body.documents.map(({ places_done: _d, places_total: _t, ...d }: any) => d),
        res.body.documents,
        'GET /sessions/{id} shows the same documents',
      );
      const rows = await documentRows(id);
      assert.equal(rows[1].sha256, sha256(added));
    });

    it('documents added the moment a session exists are taken while its workflow records its first steps', async () => {
      // The addition waits for the workflow's update inside its transaction, while the workflow's own
      // database steps (local activities) write the session's row: neither may wait on the other.
      const pdf = b64(await pdfBytes(1));
      const sessions = await Promise.all(
        Array.from({ length: 4 }, async (_, s) => {
          const created = await createSession(
            apiKey,
            await withDocs([{ name: 'first.pdf', base64Doc: pdf }]),
          );
          assertPass(created);
          const answers = [];
          for (let i = 0; i < 3; i++) {
            answers.push(
              await addDocuments(apiKey, created.body.bn_session_id, {
                session_documents: [{ name: `s${s}-added${i}.pdf`, base64Doc: pdf }],
              }),
            );
          }
          return answers;
        }),
      );
      for (const [s, answers] of sessions.entries()) {
        for (const answer of answers) assertPass(answer, `session ${s}: add document`);
        assert.deepEqual(
          answers[2].body.documents.map((d: any) => d.name),
          ['first.pdf', `s${s}-added0.pdf`, `s${s}-added1.pdf`, `s${s}-added2.pdf`],
        );
      }
    });

    it('applies the same rules as create: 403 with the 7.1 body, nothing added', async () => {
      const created = await createSession(
        apiKey,
        await withDocs([{ name: 'first.pdf', base64Doc: b64(await pdfBytes(1)) }]),
      );
      assertPass(created);
      const id = created.body.bn_session_id;
      const bad: Array<[string, unknown, string | RegExp]> = [
        [
          'PNG named .pdf',
          { session_documents: [{ name: 'x.pdf', base64Doc: b64(PNG_1x1) }] },
          /session_documents\[0\]/,
        ],
        [
          'not base64',
          { session_documents: [{ name: 'x.pdf', base64Doc: 'not base64!!' }] },
          /session_documents\[0\]\.base64Doc/,
        ],
        [
          'unsupported extension',
          { session_documents: [{ name: 'x.exe', base64Doc: b64(await pdfBytes(1)) }] },
          /session_documents\[0\]\.name/,
        ],
        [
          'annotation beyond the pages',
          {
            session_documents: [
              { name: 'x.pdf', base64Doc: b64(await pdfBytes(1)), annotations: [annotation({ pageNum: 2 })] },
            ],
          },
          /session_documents\[0\]\.annotations\[0\]\.pageNum/,
        ],
        [
          'too large',
          { session_documents: [{ name: 'x.pdf', base64Doc: b64(await pdfBytes(1, MB10 + 1)) }] },
          'Document exceeds maximum file size',
        ],
        ['no documents', { session_documents: [] }, /session_documents/],
      ];
      for (const [label, body, message] of bad) {
        assertCreateFailure(await addDocuments(apiKey, id, body), message, label);
      }
      assert.equal((await documentRows(id)).length, 1, 'no refused document was added');
    });

    it('a bad document among good ones adds none of them', async () => {
      const created = await createSession(
        apiKey,
        await withDocs([{ name: 'first.pdf', base64Doc: b64(await pdfBytes(1)) }]),
      );
      const id = created.body.bn_session_id;
      const res = await addDocuments(apiKey, id, {
        session_documents: [
          { name: 'good.pdf', base64Doc: b64(await pdfBytes(1)) },
          { name: 'bad.png', base64Doc: b64(TEXT) },
        ],
      });
      assertCreateFailure(res, /session_documents\[1\]/);
      assert.equal((await documentRows(id)).length, 1);
    });

    it('answers 409 once the session is in_progress', async () => {
      const created = await inProgressSession(
        apiKey,
        await withDocs([{ name: 'first.pdf', base64Doc: b64(await pdfBytes(1)) }]),
      );
      const res = await addDocuments(apiKey, created.bn_session_id, {
        session_documents: [{ name: 'late.pdf', base64Doc: b64(await pdfBytes(1)) }],
      });
      assert.equal(res.status, 409, `expected 409 after in_progress, got ${res.status} ${res.text}`);
      assert.equal(res.body.response, 'Fail');
      assert.ok(res.body.response_message, 'the 409 says why');
      assert.equal((await documentRows(created.bn_session_id)).length, 1, 'nothing was added');
    });
  });
});
