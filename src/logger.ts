import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * What an error may say in the log. Sequelize and node-postgres attach the query's bind parameters
 * (document bytes, e-mails, names), the SQL (Sequelize inlines some values), the failing row (`detail`,
 * `fields`, `errors`) and copies of all that under `parent` / `original`: none of it is logged.
 */
const ERROR_FIELDS = ['name', 'message', 'code', 'type', 'routine', 'table', 'constraint', 'column', 'stack'];
const MAX_CAUSE_DEPTH = 4;

function safeError(err: unknown, depth = 0): unknown {
  if (!err || typeof err !== 'object') return err;
  const source = err as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of ERROR_FIELDS) if (source[field] !== undefined) out[field] = source[field];
  if (depth < MAX_CAUSE_DEPTH) {
    // The database's own failure is worth its code and routine, never its data.
    if (source.parent) out.parent = safeError(source.parent, depth + 1);
    if (source.cause) out.cause = safeError(source.cause, depth + 1);
  }
  return out;
}

export function createLogger(level: string, name = 'notarization', destination?: DestinationStream): Logger {
  return pino(
    {
      name,
      level,
      // `err` is pino's convention, `error` the Temporal SDK's.
      serializers: { err: safeError, error: safeError },
      // Request bodies carry base64 documents and keys: never log them.
      redact: {
        paths: ['req.headers.authorization', '*.base64Doc', '*.api_key', '*.refresh_token'],
        remove: true,
      },
    },
    destination,
  );
}
