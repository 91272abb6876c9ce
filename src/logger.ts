import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string, name = 'notarization'): Logger {
  return pino({
    name,
    level,
    // Request bodies carry base64 documents and keys: never log them.
    redact: {
      paths: ['req.headers.authorization', '*.base64Doc', '*.api_key', '*.refresh_token'],
      remove: true,
    },
  });
}
