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

/** The answer of a notary action, or of an offer's accept or decline: where the session stands now. */
export const actionAnswer = (sessionId: string, result: { status: string; documentsStatus: string }) => ({
  response: 'Pass',
  bn_session_id: sessionId,
  status: result.status,
  documents_status: result.documentsStatus,
});
