import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { webhookDescriptions } from '../../src/http/openapi/webhooks';
import { testEnvironment } from './environment';

interface Media {
  schema?: object;
}

interface Operation {
  operationId: string;
  responses: Record<string, { content?: Record<string, Media> }>;
}

interface DocumentedPath {
  pattern: RegExp;
  parameters: number;
  operations: Record<string, Operation>;
}

type Webhooks = Record<string, { post: { requestBody: { content: Record<string, Media> } } }>;

const ajv = addFormats(new Ajv2020({ strict: false }));
const validators = new Map<string, ValidateFunction>();
let paths: DocumentedPath[] | undefined;
// Built as the document builds its `webhooks`, without an API: the bench's receiver checks deliveries too.
let webhooks: Webhooks | undefined;

function documentedPaths(): DocumentedPath[] {
  const doc = testEnvironment().runtime.app!.openApiDocument() as {
    paths: Record<string, Record<string, Operation>>;
  };
  return Object.entries(doc.paths).map(([template, operations]) => ({
    pattern: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`),
    parameters: template.split('{').length - 1,
    operations,
  }));
}

/** The operation the router gives the request: of the paths that match, the most literal one with the method. */
function operationOf(method: string, pathname: string): Operation | undefined {
  paths ??= documentedPaths();
  const verb = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
  return paths
    .filter((p) => p.pattern.test(pathname) && p.operations[verb])
    .sort((a, b) => a.parameters - b.parameters)[0]?.operations[verb];
}

/**
 * How an answer departs from the OpenAPI document: a status it does not list, a content type it does
 * not list for that status, or a JSON body its schema refuses. Undefined when the answer fits, or when
 * no documented operation takes the request (an unknown path or method answers 404 or 405 by design).
 */
export function contractViolation(
  method: string,
  url: URL,
  status: number,
  contentType: string | null,
  body: unknown,
): string | undefined {
  const operation = operationOf(method, url.pathname);
  if (!operation) return undefined;
  const where = `${method} ${url.pathname} (${operation.operationId}) answered ${status}`;
  const response = operation.responses[String(status)];
  if (!response) return `${where}, which the document does not list`;
  if (!response.content || method.toUpperCase() === 'HEAD') return undefined;
  const type = (contentType ?? '').split(';')[0].trim();
  const media = response.content[type];
  if (!media)
    return `${where} as ${type || 'no content type'}; documented: ${Object.keys(response.content).join(', ')}`;
  if (type !== 'application/json' || !media.schema) return undefined;
  return refusal(`${operation.operationId} ${status}`, media.schema, body, `${where} with a body`);
}

/** How a delivered webhook's body departs from the document's `webhooks` entry for its event. */
export function webhookViolation(body: unknown): string | undefined {
  const event = String((body as { event?: unknown } | null)?.event);
  webhooks ??= webhookDescriptions() as Webhooks;
  const entry = webhooks[event];
  if (!entry) return `a webhook of event ${event}, which the document does not describe`;
  const schema = entry.post.requestBody.content['application/json'].schema!;
  return refusal(`webhook ${event}`, schema, body, `a webhook of event ${event}`);
}

function refusal(key: string, schema: object, body: unknown, what: string): string | undefined {
  let validate = validators.get(key);
  if (!validate) validators.set(key, (validate = ajv.compile(schema)));
  if (validate(body)) return undefined;
  return `${what} that its schema refuses: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(body).slice(0, 300)}`;
}
