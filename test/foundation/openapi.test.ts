import { withUploads } from '../../src/http/jsonWithUploads';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { request } from '../support/http';
import { testEnvironment } from '../support/environment';
import type Joi from 'joi';
import { REQUEST_EXAMPLES } from '../../src/http/openapi/examples';
import { VALIDATION_OPTIONS } from '../../src/validation/options';
import { createTestAccount } from '../support/accounts';
import { createSession, sessionBody } from '../support/sessions';
import { contractViolation, webhookViolation } from '../support/contract';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { EVENT_NAMES } from '../../core/session/events';

function documentedOperations(doc: any): Set<string> {
  const ops = new Set<string>();
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
    for (const method of Object.keys(methods)) ops.add(`${method.toUpperCase()} ${path}`);
  }
  return ops;
}

/** Every string of the document, wherever it stands (descriptions, decisions, webhook schemas). */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) stringsOf(v, out);
  return out;
}

/** `GET /sessions/{id}/x` as a pattern over documented paths: any parameter name matches any other. */
const routeShape = (op: string) =>
  op
    .replace(' /api/integrationsv2/', ' /')
    .replace(/\{[^}]+\}/g, '{}')
    .replace(/\/$/, '');

describe('OpenAPI document', () => {
  let doc: any;
  before(async () => {
    const res = await request('/api/integrationsv2/openapi.json');
    assert.equal(res.status, 200);
    doc = res.body;
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    assert.equal(doc.openapi, '3.1.0');
    const result = await new Validator().validate(doc);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2)?.slice(0, 2000));
  });

  it('every route a description names is a documented operation (issue 69)', () => {
    const documented = new Set([...documentedOperations(doc)].map((op) => routeShape(op)));
    const named = new Set<string>();
    for (const text of stringsOf(doc)) {
      for (const [, method, path] of text.matchAll(/\b(GET|POST|PUT|PATCH|DELETE) (\/[\w{}/.-]*[\w}])/g))
        named.add(`${method} ${path}`);
    }
    assert.ok(named.size > 20, `only ${named.size} routes named`);
    const missing = [...named].filter((op) => !documented.has(routeShape(op)));
    assert.deepEqual(missing, []);
  });

  it('has an example for every request body and every response (issue 13)', () => {
    const missing: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(methods)) {
        const body = op.requestBody?.content?.['application/json'];
        if (body && body.example === undefined) missing.push(`${method} ${path} request`);
        for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
          for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, any>))
            if (media.example === undefined) missing.push(`${method} ${path} ${status} ${type}`);
        }
      }
    }
    assert.deepEqual(missing, []);
  });

  it('every request example passes the route’s own validation, so it works when sent', () => {
    const refused: string[] = [];
    for (const def of testEnvironment().runtime.app!.routes.definitions) {
      if (!def.body) continue;
      // As the body reader hands it over: a document route gets each base64Doc decoded.
      const example = def.acceptsDocuments
        ? withUploads(structuredClone(REQUEST_EXAMPLES[def.operationId]))
        : REQUEST_EXAMPLES[def.operationId];
      const { error } = (def.body as Joi.Schema).validate(example, VALIDATION_OPTIONS);
      if (error) refused.push(`${def.operationId}: ${error.message}`);
    }
    assert.deepEqual(refused, []);
  });

  it('describes exactly the routes the server answers, so the two cannot drift', () => {
    const served = new Set<string>();
    for (const layer of testEnvironment().runtime.app!.routers.flatMap((router) => router.stack)) {
      const layerPath = String(layer.path);
      if (layerPath.startsWith('/docs/assets')) continue;
      for (const method of layer.methods.filter((m) => m !== 'HEAD')) {
        served.add(`${method} ${layerPath.replace(/:(\w+)/g, '{$1}')}`);
      }
    }
    assert.deepEqual([...served].sort(), [...documentedOperations(doc)].sort());
  });

  it('documents the spec fields of the session create request and both response shapes', () => {
    const request =
      doc.paths['/api/integrationsv2/sessions'].post.requestBody.content['application/json'].schema;
    for (const field of [
      'signing_type',
      'notarization_id',
      'all_signers',
      'session_type',
      'notarization_timing_type',
      'session_timing',
      'session_notary_email',
      'state_specific_notary',
      'notarization_types',
      'witnesses',
      'session_documents',
      'document_templates',
      'final_documents_delivery_mode',
      'send_invite_after_pretagging',
      'loan_details',
      'session_configurations',
    ]) {
      assert.ok(request.properties[field], `request field ${field}`);
    }
    const annotation = request.properties.session_documents.items.properties.annotations.items;
    assert.deepEqual(annotation.properties.fieldType.enum.length > 0, true, 'fieldType set is published');
    assert.deepEqual(annotation.properties.role.enum, ['signer', 'witness', 'notary']);
    const response =
      doc.paths['/api/integrationsv2/sessions'].post.responses['200'].content['application/json'].schema;
    for (const field of [
      'response',
      'response_message',
      'notarization_id',
      'bn_session_id',
      'bn_signing_url',
      'full_signing_url',
      'additional_signers_signing_urls',
      'signing_urls',
      'witnessess_signing_urls',
    ]) {
      assert.ok(response.properties[field], `response field ${field}`);
    }
    assert.ok(
      doc.paths['/api/integrationsv2/sessions'].post.responses['403'],
      'the 7.1 failure is documented',
    );
  });

  it('documents the team routes with their error bodies', () => {
    const invite = doc.paths['/api/integrationsv2/team_members/invite'].post;
    for (const status of ['200', '201', '400', '401', '422'])
      assert.ok(invite.responses[status], `invite ${status}`);
    const unlink = doc.paths['/api/integrationsv2/team_members/{id}'].delete;
    for (const status of ['200', '403', '404', '422'])
      assert.ok(unlink.responses[status], `unlink ${status}`);
    assert.deepEqual(doc.paths['/api/integrationsv2/team_members/{id}'].delete.security, [{ VendorKey: [] }]);
    assert.deepEqual(doc.paths['/api/integrationsv2/sessions'].post.security, [{ ApiKey: [] }]);
  });

  it('lists the body reader’s 413 and 415 on every route with a body, as the server answers them', async () => {
    const missing: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>))
      for (const [method, op] of Object.entries(methods))
        if (op.requestBody && !(op.responses['413'] && op.responses['415']))
          missing.push(`${method} ${path}`);
    assert.deepEqual(missing, []);
    const refresh = doc.paths['/api/integrationsv2/auth/refresh'].post.responses;
    const oversize = await request('/api/integrationsv2/auth/refresh', {
      rawBody: JSON.stringify({ api_key: 'x'.repeat(70_000) }),
    });
    assert.deepEqual(oversize.body, refresh['413'].content['application/json'].example);
    const create = doc.paths['/api/integrationsv2/sessions'].post.responses;
    assert.equal(
      create['413'].content['application/json'].example.response_message,
      'Request body exceeds 78643200 bytes',
    );
    const compressed = await request('/api/integrationsv2/auth/refresh', {
      rawBody: '{}',
      headers: { 'content-encoding': 'gzip' },
    });
    assert.equal(compressed.status, 415);
    assert.ok(refresh['415'].headers['Accept-Encoding']);
  });

  it('marks a request body required exactly where a request without one is refused', async () => {
    const account = await createTestAccount();
    const session = await createSession(account.api_key, await sessionBody());
    assert.equal(session.status, 200, session.text);
    const cancel = doc.paths['/api/integrationsv2/sessions/{id}/cancel'].post.requestBody;
    const bare = await request(`/api/integrationsv2/sessions/${session.body.bn_session_id}/cancel`, {
      method: 'POST',
      auth: account.api_key,
    });
    assert.equal(bare.status, 200, bare.text);
    assert.equal(cancel.required, false);
    const webhooks = doc.paths['/api/integrationsv2/webhooks'].post.requestBody;
    const refused = await request('/api/integrationsv2/webhooks', { method: 'POST', auth: account.api_key });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(webhooks.required, true);
    const misdocumented: string[] = [];
    for (const def of testEnvironment().runtime.app!.routes.definitions) {
      if (!def.body) continue;
      const acceptsNoBody = !(def.body as Joi.Schema).validate({}, VALIDATION_OPTIONS).error;
      if (doc.paths[def.path][def.method].requestBody.required === acceptsNoBody)
        misdocumented.push(`${def.method} ${def.path}`);
    }
    assert.deepEqual(misdocumented, []);
  });

  it('documents what every route answers to invalid input and to a body that is not JSON, as the server answers it', async () => {
    const account = await createTestAccount();
    const credential: Record<string, string | undefined> = {
      none: undefined,
      api: account.api_key,
      session_actor: account.api_key,
      vendor: account.vendor_api_key,
    };
    const undocumented: string[] = [];
    for (const def of testEnvironment().runtime.app!.routes.definitions) {
      // A member's own token is another test's business: without one, these answer their documented 401.
      if (!(def.auth in credential)) continue;
      const documented = doc.paths[def.path][def.method].responses;
      const path = def.path.replace(/\{\w+\}/g, 'x');
      const auth = credential[def.auth];
      const answers = [
        // NUL is text PostgreSQL cannot store: refused by every route's input check, whatever its schema.
        await request(`${path}?probe=%00`, {
          method: def.method.toUpperCase(),
          auth,
          ...(def.method === 'post' ? { body: {} } : {}),
        }),
        ...(def.method === 'post' ? [await request(path, { auth, rawBody: '{"unterminated' })] : []),
      ];
      for (const answer of answers) {
        const media = documented[answer.status]?.content?.['application/json'];
        if (!media || answer.body?.response !== 'Fail')
          undocumented.push(`${def.method} ${def.path}: ${answer.status} ${answer.text.slice(0, 80)}`);
      }
    }
    assert.deepEqual(undocumented, []);
    const templates = doc.paths['/api/integrationsv2/templates'].post.responses['400'];
    assert.equal(templates.content['application/json'].example.response_message, 'Invalid JSON body');
  });

  it('writes down what Joi refuses on its own (empty strings, unsafe numbers) and that unknown fields are accepted', async () => {
    const login =
      doc.paths['/api/integrationsv2/auth/login_link'].post.requestBody.content['application/json'].schema;
    assert.equal(login.properties.login_link_id.minLength, 1);
    const empty = await request('/api/integrationsv2/auth/login_link', {
      body: { login_link_id: '', key: 'k' },
    });
    assert.equal(empty.status, 400);
    assert.equal(empty.body.response_message, 'login_link_id is not allowed to be empty');
    // A string that may be empty says so by having no minLength.
    const complete = doc.paths['/complete'].get.parameters.find((p: any) => p.name === 'notarization_id');
    assert.equal(complete.schema.minLength, undefined);
    assert.equal((await request('/complete?notarization_id=')).status, 200);

    const account = await createTestAccount();
    const page = doc.paths['/api/integrationsv2/templates'].get.parameters.find(
      (p: any) => p.name === 'page',
    );
    assert.equal(page.schema.maximum, Number.MAX_SAFE_INTEGER);
    const unsafe = await request(`/api/integrationsv2/templates?page=${2 ** 60}`, { auth: account.api_key });
    assert.equal(unsafe.status, 400);
    assert.ok(doc.paths['/api/integrationsv2/templates'].get.responses['400']);

    const webhook =
      doc.paths['/api/integrationsv2/webhooks'].post.requestBody.content['application/json'].schema;
    assert.equal(webhook.additionalProperties, true);
    const later = await request('/api/integrationsv2/webhooks', {
      auth: account.api_key,
      body: {
        url: 'https://hooks.example.com/n',
        events: ['session_completed'],
        field_of_a_later_version: 1,
      },
    });
    assert.equal(later.status, 201);
  });

  it('states patterns a JSON Schema validator reads as the service does, so documented requests validate', async () => {
    const patterns: string[] = [];
    JSON.stringify(
      doc,
      (key, value) => (key === 'pattern' && typeof value === 'string' && patterns.push(value), value),
    );
    for (const pattern of patterns) {
      assert.doesNotMatch(pattern, /\/[a-z]*$/, `a regex literal's flags left in ${pattern}`);
      assert.doesNotThrow(() => new RegExp(pattern, 'u'), pattern);
    }
    const ajv = addFormats(new Ajv2020({ strict: false }));
    const body = (path: string, operation = 'post') =>
      doc.paths[path][operation].requestBody.content['application/json'];
    const refused: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>))
      for (const [method, op] of Object.entries(methods)) {
        const media = op.requestBody?.content?.['application/json'];
        if (media && !ajv.validate(media.schema, media.example))
          refused.push(`${method} ${path}: ${ajv.errorsText()}`);
      }
    assert.deepEqual(refused, []);

    const create = await sessionBody();
    create.session_documents[0].name = 'DEED.Pdf';
    assert.ok(ajv.validate(body('/api/integrationsv2/sessions').schema, create), ajv.errorsText());
    const created = await createSession((await createTestAccount()).api_key, create);
    assert.equal(created.status, 200, created.text);
    const mark = body('/sign/{token}/adopted_signature').schema;
    const named = { signature: { method: 'typed', style: 'dancing-script', text: 'Zoë 李 😀' } };
    assert.ok(
      ajv.validate(mark, { ...body('/sign/{token}/adopted_signature').example, ...named }),
      ajv.errorsText(),
    );
    assert.equal(
      ajv.validate(mark, { ...named, signature: { ...named.signature, text: 'Zo\u0007ë' } }),
      false,
    );
  });

  it('documents the signing page as HTML for a browser and JSON on request, the unknown link too', async () => {
    const page = doc.paths['/sign/{token}'].get.responses;
    for (const status of ['200', '404', '410'])
      assert.deepEqual(Object.keys(page[status].content).sort(), ['application/json', 'text/html'], status);
    const browser = await request('/sign/no-such-token', { headers: { accept: 'text/html' } });
    assert.equal(browser.status, 404);
    assert.match(browser.headers.get('content-type') ?? '', /^text\/html/);
    const client = await request('/sign/no-such-token', { headers: { accept: 'application/json' } });
    assert.equal(client.status, 404);
    assert.equal(client.body.response_message, 'Signing link not found');
  });

  it('links a created session and webhook endpoint to the operations their ids lead to, and each link works', async () => {
    const operations = new Map<string, { method: string; path: string }>();
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>))
      for (const [method, op] of Object.entries(methods)) operations.set(op.operationId, { method, path });
    const account = await createTestAccount();
    const session = await createSession(account.api_key, await sessionBody());
    assert.equal(session.status, 200, session.text);
    const endpoint = await request('/api/integrationsv2/webhooks', {
      auth: account.api_key,
      body: { url: 'https://hooks.example.com/n', events: ['session_completed'] },
    });
    assert.equal(endpoint.status, 201, endpoint.text);
    const followed: string[] = [];
    for (const [path, status, answer] of [
      ['/api/integrationsv2/sessions', '200', session.body],
      ['/api/integrationsv2/webhooks', '201', endpoint.body],
    ] as const) {
      const links = doc.paths[path].post.responses[status].links as Record<string, any>;
      assert.ok(Object.keys(links).length > 1, path);
      for (const link of Object.values(links)) {
        const target = operations.get(link.operationId);
        assert.ok(target, `${path} links to ${link.operationId}, which the document does not have`);
        const id = answer[String(link.parameters.id).replace('$response.body#/', '')];
        const answered = await request(target.path.replace('{id}', id), {
          method: target.method.toUpperCase(),
          auth: account.api_key,
          ...(target.method === 'post' ? { body: {} } : {}),
        });
        followed.push(`${link.operationId} ${answered.status}`);
        assert.ok(
          ![404, 405].includes(answered.status) && answered.status < 500,
          `${link.operationId}: ${answered.text}`,
        );
      }
    }
    assert.ok(
      followed.some((f) => f === 'getSession 200'),
      followed.join(', '),
    );
  });

  it('holds every answer the tests get to the document: a status, a content type or a body it does not describe', () => {
    const url = (path: string) => new URL(`${testEnvironment().apiUrl}${path}`);
    const session = url('/api/integrationsv2/sessions/5f0c2a4e-8b1d-4c59-9a51-2d7e6b8f1c30');
    assert.match(
      contractViolation('GET', session, 200, 'application/json', { status: 42 }) ?? '',
      /schema refuses/,
    );
    assert.match(contractViolation('GET', session, 418, 'application/json', {}) ?? '', /does not list/);
    assert.match(contractViolation('GET', session, 404, 'text/plain', 'Not found') ?? '', /as text\/plain/);
    assert.equal(
      contractViolation('GET', session, 404, 'application/json', { response: 'Fail', response_message: 'x' }),
      undefined,
    );
    // The literal path wins over the template it also matches, as in the router.
    const invite = url('/api/integrationsv2/team_members/invite');
    assert.match(contractViolation('POST', invite, 200, 'application/json', []) ?? '', /inviteTeamMember/);
    assert.equal(contractViolation('GET', url('/no/such/path'), 404, 'application/json', {}), undefined);
  });

  it('describes the body of every event a webhook endpoint receives, and holds deliveries to it', () => {
    assert.deepEqual(Object.keys(doc.webhooks).sort(), [...EVENT_NAMES].sort());
    const join = doc.webhooks.join_session.post;
    assert.deepEqual(
      join.parameters.map((p: any) => p.name),
      ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
    );
    const body = join.requestBody.content['application/json'];
    assert.deepEqual(body.schema.properties.data.required.sort(), ['email', 'index', 'role']);
    assert.equal(webhookViolation(body.example), undefined);
    assert.match(webhookViolation({ ...body.example, data: {} }) ?? '', /must have required property 'role'/);
    assert.match(
      webhookViolation({ ...body.example, event: 'session_teleported' }) ?? '',
      /does not describe/,
    );
  });

  it('records the decisions taken where the spec is silent', () => {
    assert.match(doc.info.description, /Decisions where the specification is silent/);
    assert.match(doc.info.description, /75 MiB/);
  });
});
