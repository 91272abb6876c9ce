import assert from 'node:assert/strict';
import { request } from '../support/http';
import { testEnvironment } from '../support/environment';

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

  it('a body that is not JSON is a 415', async () => {
    const res = await request('/api/integrationsv2/auth/refresh', {
      rawBody: 'api_key=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(res.status, 415);
    assert.equal(res.body.response_message, 'Content-Type must be application/json');
  });

  it('a body over MAX_BODY_BYTES is a 413 and is not read to the end', async () => {
    const limit = testEnvironment().config.maxBodyBytes;
    const res = await request('/api/integrationsv2/auth/refresh', {
      rawBody: JSON.stringify({ api_key: 'x'.repeat(limit) }),
    });
    assert.equal(res.status, 413);
    assert.equal(res.body.response, 'Fail');
    assert.equal(res.body.response_message, `Request body exceeds ${limit} bytes`);
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
