import type { Connection } from '@temporalio/client';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { SESSION_SEARCH_ATTRIBUTES } from '../../core/temporal/searchAttributes';

const CLI_TYPE_NAMES: Record<string, string> = {
  KEYWORD: 'Keyword',
  TEXT: 'Text',
  INT: 'Int',
  BOOL: 'Bool',
  DATETIME: 'Datetime',
};

/** `--search-attribute Name=Type` flags for `temporal server start-dev`. */
export function searchAttributeCliArgs(): string[] {
  return SESSION_SEARCH_ATTRIBUTES.flatMap((a) => [
    '--search-attribute',
    `${a.name}=${CLI_TYPE_NAMES[a.type]}`,
  ]);
}

const SERVED_WITHIN_MS = 30_000;

/** A query naming every attribute: the namespace resolves them the way it checks a workflow's start. */
const EVERY_ATTRIBUTE = SESSION_SEARCH_ATTRIBUTES.map((a) => `${a.name} = 'probe'`).join(' AND ');

/** Why the namespace does not resolve them yet, or undefined once it does. */
async function unresolved(connection: Connection, namespace: string): Promise<string | undefined> {
  try {
    await connection.workflowService.countWorkflowExecutions({ namespace, query: EVERY_ATTRIBUTE });
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/**
 * Registers any missing attribute on the namespace (the dev server gets them at start-up, a production
 * cluster on the first start of its processes) and returns once the namespace resolves them all. Listing
 * them is not enough: on the production shape, creates right after a registration were refused with
 * "no mapping defined for search attribute" while the namespace already listed them. Callers take turns
 * (`exclusively`), so processes starting together on a fresh cluster do not register them at once.
 */
export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<void> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = SESSION_SEARCH_ATTRIBUTES.filter((a) => !(a.name in (existing.customAttributes ?? {})));
  if (missing.length)
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(
        missing.map((a) => [a.name, encodeSearchAttributeIndexedValueType(a.type)!]),
      ),
    });
  const deadline = Date.now() + SERVED_WITHIN_MS;
  let reason = await unresolved(connection, namespace);
  while (reason) {
    if (Date.now() > deadline)
      throw new Error(
        `Temporal namespace ${namespace} did not resolve the session search attributes within ${SERVED_WITHIN_MS / 1000} s: ${reason}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
    reason = await unresolved(connection, namespace);
  }
}
