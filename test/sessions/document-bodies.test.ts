import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import { testEnvironment } from '../support/environment';
import { b64, pdfBytes } from '../support/documents';
import { request, type ApiResponse } from '../support/http';
import { STREAMED_BODY_BYTES } from '../../src/http/middleware/jsonBody';
import { STREAMED_BLOB_BYTES } from '../../src/documents/blobStore';
import { assertCreateFailure, query, SESSIONS, teamAccount, teamBody } from './helpers';

/** Whitespace before the JSON takes a body past the size above which it is parsed as it arrives. */
const PADDING = ' '.repeat(STREAMED_BODY_BYTES + 1);

/** Sends `text` with chunked transfer encoding, in pieces of uneven sizes, as a slow client would. */
function sendInPieces(path: string, apiKey: string, text: string): Promise<ApiResponse> {
  const url = new URL(`${testEnvironment().apiUrl}${path}`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString();
          resolve({ status: res.statusCode!, headers: new Headers(), body: JSON.parse(body), text: body });
        });
      },
    );
    req.on('error', reject);
    const bytes = Buffer.from(text);
    // Sizes that split base64 quanta, UTF-8 sequences and JSON tokens at every offset.
    for (let at = 0, i = 0; at < bytes.length; i++) {
      const size = [1, 3, 7, 4093, 65_537, 262_139][i % 6];
      req.write(bytes.subarray(at, at + size));
      at += size;
    }
    req.end();
  });
}

describe('document bodies: decoded as they arrive (issue 14, P2)', function () {
  this.timeout(120_000);
  let apiKey: string;
  let notaryEmail: string;

  before(async function () {
    ({ apiKey, notaryEmail } = await teamAccount());
  });

  async function storedDocument(sessionId: string) {
    const [row] = await query<{ sha256: string; size_bytes: number; content: Buffer }>(
      `SELECT d.sha256, d.size_bytes, b.content FROM documents d JOIN blobs b ON b.id = d.blob_id
        WHERE d.session_id = $1`,
      [sessionId],
    );
    return row;
  }

  it('a multi-megabyte document sent in uneven chunks is stored byte for byte', async () => {
    const pdf = await pdfBytes(2, 3 * 1024 * 1024 + 1);
    const body = await teamBody(notaryEmail, {
      session_documents: [{ name: 'deed.pdf', base64Doc: b64(pdf) }],
    });
    const res = await sendInPieces(SESSIONS, apiKey, JSON.stringify(body));
    assert.equal(res.status, 200, res.text);
    const stored = await storedDocument(res.body.bn_session_id);
    assert.equal(stored.size_bytes, pdf.length);
    assert.equal(stored.sha256, crypto.createHash('sha256').update(pdf).digest('hex'));
    assert.ok(stored.content.equals(pdf), 'the stored bytes are the uploaded ones');
  });

  it('a document whose slashes are escaped (as PHP sends them) is stored byte for byte, in any pieces', async () => {
    // Bytes whose base64 has a slash every few characters, so pieces split `\/` at every offset.
    const pdf = Buffer.concat([await pdfBytes(1), Buffer.from('%'), Buffer.alloc(2 * 1024 * 1024, 0xff)]);
    const body = await teamBody(notaryEmail, {
      session_documents: [{ name: 'deed.pdf', base64Doc: b64(pdf) }],
    });
    delete body.notarization_id;
    const text = JSON.stringify({ ...body, notarization_id: 'AfterTheDocument' }).replace(/\//g, '\\/');
    const res = await sendInPieces(SESSIONS, apiKey, text);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.notarization_id, 'AfterTheDocument');
    assert.ok((await storedDocument(res.body.bn_session_id)).content.equals(pdf));
  });

  it('the same large document sent by several creates at once is stored once, for all of them', async () => {
    const pdf = await pdfBytes(1, STREAMED_BLOB_BYTES * 2);
    const body = JSON.stringify(
      await teamBody(notaryEmail, { session_documents: [{ name: 'deed.pdf', base64Doc: b64(pdf) }] }),
    );
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => request(SESSIONS, { auth: apiKey, rawBody: body })),
    );
    for (const res of answers) assert.equal(res.status, 200, res.text);
    const rows = await query<{ blob_id: string; content: Buffer }>(
      `SELECT d.blob_id, b.content FROM documents d JOIN blobs b ON b.id = d.blob_id WHERE d.session_id = ANY($1)`,
      [answers.map((res) => res.body.bn_session_id)],
    );
    assert.equal(rows.length, 4);
    assert.equal(new Set(rows.map((r) => r.blob_id)).size, 1, 'one stored copy');
    assert.ok(rows[0].content.equals(pdf), 'the stored bytes are the uploaded ones');
  });

  it('answers a body read whole and the same body read as it arrives alike', async () => {
    // Long enough to span several of the body's pieces: read as it arrives, most of its text goes
    // straight to the decoder rather than through the parser.
    const pdf = b64(await pdfBytes(1, 256 * 1024));
    const cut = pdf.length / 2 - ((pdf.length / 2) % 4);
    const doc = (base64Doc: unknown) => ({ session_documents: [{ name: 'deed.pdf', base64Doc }] });
    const cases: Array<[string, () => Promise<string>]> = [
      [
        'not base64',
        async () =>
          JSON.stringify(await teamBody(notaryEmail, doc(`${pdf.slice(0, cut)}!${pdf.slice(cut + 1)}`))),
      ],
      [
        'padding inside',
        async () =>
          JSON.stringify(await teamBody(notaryEmail, doc(`${pdf.slice(0, cut - 2)}==${pdf.slice(cut)}`))),
      ],
      [
        'a length that is not a multiple of 4',
        async () => JSON.stringify(await teamBody(notaryEmail, doc(pdf.slice(0, -1)))),
      ],
      [
        'escaped characters in the base64',
        async () => JSON.stringify(await teamBody(notaryEmail, doc(pdf))).replace(/\//g, '\\/'),
      ],
      [
        'a line break inside the base64',
        async () =>
          JSON.stringify(await teamBody(notaryEmail, doc(pdf))).replace(
            pdf,
            `${pdf.slice(0, cut)}\n${pdf.slice(cut)}`,
          ),
      ],
      ['a number', async () => JSON.stringify(await teamBody(notaryEmail, doc(42)))],
      ['an empty string', async () => JSON.stringify(await teamBody(notaryEmail, doc('')))],
      ['an object', async () => JSON.stringify(await teamBody(notaryEmail, doc({ base64Doc: pdf })))],
      [
        'a PNG named .pdf',
        async () =>
          JSON.stringify(await teamBody(notaryEmail, doc(b64(Buffer.from('89504e470d0a1a0a', 'hex'))))),
      ],
      [
        '__proto__ as a key',
        async () =>
          JSON.stringify(await teamBody(notaryEmail, doc(pdf))).replace(
            /^\{/,
            '{"__proto__":{"signing_type":"x"},',
          ),
      ],
      ['a byte-order mark', async () => `\uFEFF${JSON.stringify(await teamBody(notaryEmail, doc(pdf)))}`],
      ['cut short', async () => JSON.stringify(await teamBody(notaryEmail, doc(pdf))).slice(0, -2)],
      ['trailing text', async () => `${JSON.stringify(await teamBody(notaryEmail, doc(pdf)))} {}`],
      [
        'nested 40 deep',
        async () =>
          JSON.stringify(await teamBody(notaryEmail, { extra: JSON.parse('['.repeat(40) + ']'.repeat(40)) })),
      ],
    ];
    for (const [what, make] of cases) {
      const text = await make();
      // The padding goes after a BOM, if any: JSON's whitespace, not the document's.
      const padded = text.startsWith('\uFEFF') ? `\uFEFF${PADDING}${text.slice(1)}` : `${PADDING}${text}`;
      const whole = await request(SESSIONS, { auth: apiKey, rawBody: text });
      const streamed = await request(SESSIONS, { auth: apiKey, rawBody: padded });
      assert.ok(whole.status < 500, `${what}: ${whole.status} ${whole.text}`);
      assert.equal(
        streamed.status,
        whole.status,
        `${what}: status; whole ${whole.text} streamed ${streamed.text}`,
      );
      assert.equal(
        streamed.body.response_message,
        whole.body.response_message,
        `${what}: the same message either way`,
      );
    }
  });

  it('names the field when the base64 is not strict, says how to mend line breaks and data URIs, and stores nothing', async () => {
    const before = await query<{ n: number }>('SELECT count(*)::int AS n FROM blobs');
    const pdf = b64(await pdfBytes(1, 2 * 1024 * 1024));
    // Node's own decoder would take base64url's `-` and `_` and skip the others without a word.
    for (const character of ['*', '-', '_', ' ']) {
      const body = await teamBody(notaryEmail, {
        session_documents: [
          { name: 'deed.pdf', base64Doc: `${pdf.slice(0, 1_000_000)}${character}${pdf.slice(1_000_001)}` },
        ],
      });
      assertCreateFailure(
        await sendInPieces(SESSIONS, apiKey, JSON.stringify(body)),
        'session_documents[0].base64Doc is not valid base64',
      );
    }
    // What the `base64` tool writes by default (76 columns), what MIME encoders write, and a browser's data URI.
    const wrap = (text: string, width: number, eol: string) =>
      text.match(new RegExp(`.{1,${width}}`, 'g'))!.join(eol) + eol;
    const lineBreaks =
      'session_documents[0].base64Doc is not valid base64: send it on one line, without line breaks (base64 -w 0)';
    const mendable: Array<[string, string]> = [
      [wrap(pdf, 76, '\n'), lineBreaks],
      [wrap(pdf, 76, '\r\n'), lineBreaks],
      [`${pdf}\n`, lineBreaks],
      [
        `data:application/pdf;base64,${pdf}`,
        'session_documents[0].base64Doc is not valid base64: send the base64 alone, without its data: URI prefix',
      ],
    ];
    for (const [base64Doc, message] of mendable) {
      const text = JSON.stringify(
        await teamBody(notaryEmail, { session_documents: [{ name: 'deed.pdf', base64Doc }] }),
      );
      assertCreateFailure(await request(SESSIONS, { auth: apiKey, rawBody: text }), message, 'read whole');
      assertCreateFailure(await sendInPieces(SESSIONS, apiKey, text), message, 'read as it arrives');
    }
    const after = await query<{ n: number }>('SELECT count(*)::int AS n FROM blobs');
    assert.equal(after[0].n, before[0].n);
  });

  it('refuses a body nested deeper than 32 levels, read whole or as it arrives', async () => {
    // The object and 31 arrays inside it make 32 levels; one more array makes 33.
    const nestedIn = (arrays: number) => `{"x":${'['.repeat(arrays)}1${']'.repeat(arrays)}}`;
    for (const text of [nestedIn(32), `${PADDING}${nestedIn(32)}`]) {
      const res = await request(SESSIONS, { auth: apiKey, rawBody: text });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.response_message, 'Request body nests deeper than 32 levels');
    }
    for (const text of [nestedIn(31), `${PADDING}${nestedIn(31)}`]) {
      const res = await request(SESSIONS, { auth: apiKey, rawBody: text });
      assert.notEqual(res.body.response_message, 'Request body nests deeper than 32 levels', res.text);
      assert.equal(res.status, 403, 'read, then refused by the create rules');
    }
    // Brackets inside a string do not nest, whatever its escapes; an escaped backslash does not escape the quote after it.
    const brackets = '['.repeat(40);
    const inAString = `{"note":"a \\"${brackets}\\" and a backslash \\\\","x":1}`;
    const afterAString = `{"note":"ends in a backslash \\\\","x":${'['.repeat(32)}1${']'.repeat(32)}}`;
    assert.equal((await request(SESSIONS, { auth: apiKey, rawBody: inAString })).status, 403);
    const deep = await request(SESSIONS, { auth: apiKey, rawBody: afterAString });
    assert.equal(deep.status, 400, deep.text);
    assert.equal(deep.body.response_message, 'Request body nests deeper than 32 levels');
  });
});
