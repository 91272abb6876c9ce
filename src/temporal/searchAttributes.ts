import type { Connection } from '@temporalio/client';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { SESSION_SEARCH_ATTRIBUTES } from '../../workflows/searchAttributes';

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

/**
 * Registers any missing attribute on the namespace: the dev server gets them at start-up, a
 * production cluster (docker-compose) on the first start of the worker.
 */
export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<void> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = SESSION_SEARCH_ATTRIBUTES.filter((a) => !(a.name in (existing.customAttributes ?? {})));
  if (!missing.length) return;
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(
      missing.map((a) => [a.name, encodeSearchAttributeIndexedValueType(a.type)!]),
    ),
  });
}
