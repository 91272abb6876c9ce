/** Choices made where the spec and the API contract are silent; published in the OpenAPI description. */
export const OPENAPI_DECISIONS = [
  'Keys: API keys start with `nsk_`, vendor keys with `nvk_`; both are shown once by the admin CLI and stored only as a hash.',
  'Access tokens (POST /auth/refresh) are HS256 JWTs valid for 15 minutes by default; refresh tokens live 30 days and are single use.',
  'Request bodies are limited to 75 MiB (MAX_BODY_BYTES), enough for five 10 MB documents in base64; larger bodies get 413.',
  'A body with a Content-Type other than application/json gets 415; malformed JSON gets 400 `Invalid JSON body`.',
  'Unknown paths answer 404 `Not found`; a known path with another method answers 405 `Method not allowed` with an `Allow` header.',
  'Unknown body fields are ignored, so integrators can send fields of later versions.',
  '`x-request-id` from the caller is echoed when it is 1-128 characters of letters, digits and `._:-`; otherwise one is generated.',
];
