import { failBodySchema } from '../openapi/document';

/** Answers the session routes share. */
export const notFound = {
  description: 'Unknown, malformed or another account’s session: `Session not found`',
  schema: failBodySchema,
};
export const idempotencyConflict = {
  description:
    '`duplicate nonce`: the Idempotency-Key was used with another request; or the action is not allowed now',
  schema: failBodySchema,
};
