import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import { Worker } from 'node:worker_threads';
import assert from 'node:assert/strict';
import { request } from '../support/http';
import { testEnvironment } from '../support/environment';
import { createTestAccount } from '../support/accounts';
import { SMALL_BODY_BYTES } from '../../src/http/routeTable';

/** Sends a POST's headers announcing `length` bytes and only the first few; resolves with the status line. */
function answerToPartialBody(path: string, length: number, authorization?: string): Promise<string> {
  const url = new URL(testEnvironment().apiUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n` +
          `${authorization ? `Authorization: ${authorization}\r\n` : ''}Content-Length: ${length}\r\n\r\n{"a":"`,
      );
    });
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n')) {
        socket.destroy();
        resolve(answer.split('\r\n')[0]);
      }
    });
    socket.on('error', reject);
    socket.setTimeout(10_000, () => {
      socket.destroy();
      reject(new Error(`no answer to ${path} while its body was still incomplete`));
    });
  });
}

describe('error handling', () => {
  it('an unknown route is a 404 in the spec shape', async () => {
    const res = await request('/api/integrationsv2/nothing-here');
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { response: 'Fail', response_message: 'Not found' });
  });

  it('a known route with the wrong method is a 405 with Allow', async () => {
    const res = await request('/api/integrationsv2/auth/refresh', { method: 'GET' });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'POST');
    assert.deepEqual(res.body, { response: 'Fail', response_message: 'Method not allowed' });
  });

  it('malformed JSON is a 400, without stack traces outside development', async () => {
    const res = await request('/api/integrationsv2/auth/refresh', { rawBody: '{"api_key": ' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { response: 'Fail', response_message: 'Invalid JSON body' });
  });

  it('a body of whitespace only is not JSON: a 400, where no body at all is an empty one', async () => {
    for (const rawBody of [' ', ' \t\r\n', '\f', '\u00a0', '\uFEFF']) {
      const res = await request('/api/integrationsv2/auth/refresh', { rawBody });
      assert.equal(res.status, 400, JSON.stringify(rawBody));
      assert.deepEqual(res.body, { response: 'Fail', response_message: 'Invalid JSON body' });
    }
    const none = await request('/api/integrationsv2/auth/refresh', { rawBody: '' });
    assert.equal(none.status, 400, 'no body is an empty one: {}');
    assert.match(none.body.response_message, /must contain at least one of \[api_key, refresh_token\]/);
  });

  it('a body that is not JSON is a 415', async () => {
    const res = await request('/api/integrationsv2/auth/refresh', {
      rawBody: 'api_key=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(res.status, 415);
    assert.equal(res.body.response_message, 'Content-Type must be application/json');
  });

  it('a compressed body is a 415 that asks for it uncompressed, not a JSON error', async () => {
    for (const coding of ['gzip', 'br', 'gzip, identity']) {
      const res = await request('/api/integrationsv2/auth/refresh', {
        rawBody: zlib.gzipSync(JSON.stringify({ api_key: 'x' })),
        headers: { 'content-encoding': coding },
      });
      assert.equal(res.status, 415, coding);
      assert.deepEqual(res.body, {
        response: 'Fail',
        response_message: 'Content-Encoding is not supported: send the body uncompressed',
      });
      assert.equal(res.headers.get('accept-encoding'), 'identity');
    }
  });

  it('JSON in a charset other than UTF-8 is a 415; UTF-8 however spelled is read', async () => {
    const json = JSON.stringify({ api_key: 'nsk_unknown' });
    const utf16 = await request('/api/integrationsv2/auth/refresh', {
      rawBody: Buffer.from(json, 'utf16le'),
      headers: { 'content-type': 'application/json; charset=utf-16le' },
    });
    assert.equal(utf16.status, 415);
    assert.equal(utf16.body.response_message, 'Content-Type charset must be utf-8');
    const plain = await request('/api/integrationsv2/auth/refresh', { rawBody: json });
    assert.notEqual(plain.status, 415);
    for (const type of ['application/json; charset=UTF-8', 'application/json;charset="utf8"']) {
      const res = await request('/api/integrationsv2/auth/refresh', {
        rawBody: json,
        headers: { 'content-type': type },
      });
      assert.deepEqual([res.status, res.body], [plain.status, plain.body], type);
    }
  });

  it('a body over the small limit is a 413 on routes without documents', async () => {
    const res = await request('/api/integrationsv2/auth/refresh', {
      rawBody: JSON.stringify({ api_key: 'x'.repeat(SMALL_BODY_BYTES) }),
    });
    assert.equal(res.status, 413);
    assert.equal(res.body.response, 'Fail');
    assert.equal(res.body.response_message, `Request body exceeds ${SMALL_BODY_BYTES} bytes`);
  });

  it('clients still uploading large bodies read their 413 rather than a reset connection', async () => {
    // From a thread of their own: an upload racing the server's answer, as from another process.
    const uploads = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const body = JSON.stringify({ api_key: 'x'.repeat(14 * 1000 * 1000) });
       Promise.all(Array.from({ length: 6 }, () =>
         fetch(workerData.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
           .then(async (r) => r.status + ' ' + (await r.json()).response, (err) => String(err.cause ?? err))
       )).then((answers) => parentPort.postMessage(answers));`,
      { eval: true, workerData: { url: `${testEnvironment().apiUrl}/api/integrationsv2/auth/refresh` } },
    );
    const [answers] = (await once(uploads, 'message')) as [string[]];
    await uploads.terminate();
    assert.deepEqual(answers, Array(6).fill('413 Fail'));
  });

  it('a chunked body (no Content-Length) is cut off at the limit, and the client reads its 413', async () => {
    const answer = await new Promise<{ status: number; body: { response_message: string } }>(
      (resolve, reject) => {
        const req = http.request(
          `${testEnvironment().apiUrl}/api/integrationsv2/auth/refresh`,
          { method: 'POST', headers: { 'content-type': 'application/json' } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () =>
              resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) }),
            );
          },
        );
        req.on('error', reject);
        req.write('{"api_key":"');
        // Four times the limit, in pieces, as long as the server takes them.
        const piece = 'x'.repeat(16 * 1024);
        let sent = 0;
        const pump = () => {
          while (sent < 4 * SMALL_BODY_BYTES) {
            sent += piece.length;
            if (!req.write(piece)) return void req.once('drain', pump);
          }
          req.end('"}');
        };
        pump();
      },
    );
    assert.equal(answer.status, 413);
    assert.equal(answer.body.response_message, `Request body exceeds ${SMALL_BODY_BYTES} bytes`);
  });

  it('an announced oversize body is answered from its headers, before its bytes arrive', async () => {
    // Only the headers and a few bytes are sent: an answer proves the server did not wait for the rest.
    const announced = 50 * 1024 * 1024;
    assert.match(await answerToPartialBody('/api/integrationsv2/auth/refresh', announced), /^HTTP\/1\.1 413/);
    assert.match(
      await answerToPartialBody('/api/integrationsv2/webhooks', announced, 'Bearer nsk_unknown_key'),
      /^HTTP\/1\.1 401/,
      'a document-sized body is read only for an authenticated caller',
    );
    const { api_key } = await createTestAccount();
    assert.match(
      await answerToPartialBody(
        '/api/integrationsv2/sessions',
        testEnvironment().config.maxBodyBytes + 1,
        `Bearer ${api_key}`,
      ),
      /^HTTP\/1\.1 413/,
    );
  });

  it('a validation failure names the field', async () => {
    const res = await request('/api/integrationsv2/auth/refresh', { body: {} });
    assert.equal(res.status, 400);
    assert.equal(res.body.response, 'Fail');
    assert.match(res.body.response_message, /api_key/);
    assert.match(res.body.response_message, /refresh_token/);
    assert.equal(res.body.internal_response, undefined);
  });
});
