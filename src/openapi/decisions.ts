/** Choices made where the spec and the API contract are silent; published in the OpenAPI description. */
export const OPENAPI_DECISIONS = [
  'Keys: API keys start with `nsk_`, vendor keys with `nvk_`; both are shown once by the admin CLI and stored only as a hash.',
  'Access tokens (POST /auth/refresh) are HS256 JWTs valid for 15 minutes by default; refresh tokens live 30 days and are single use.',
  'Request bodies are limited to 75 MiB (MAX_BODY_BYTES), enough for five 10 MB documents in base64; larger bodies get 413.',
  'A body with a Content-Type other than application/json gets 415; malformed JSON gets 400 `Invalid JSON body`.',
  'Unknown paths answer 404 `Not found`; a known path with another method answers 405 `Method not allowed` with an `Allow` header.',
  'Unknown body fields are ignored, so integrators can send fields of later versions.',
  'Methods the service implements for no route (TRACE, PATCH, PUT…) answer 405 `Method not allowed` in the same JSON shape.',
  'Text PostgreSQL cannot store (NUL, unpaired UTF-16 surrogates) anywhere in a body, a query or a path, and control characters in one-line fields (names, counties, commission numbers, document names), are refused with the route’s own 4xx naming the field (403 with the 7.1 body on session creation, 422 `Validation failed` on team routes, 400 elsewhere).',
  'An unreachable PostgreSQL or Temporal answers 503 `The service is temporarily unavailable; retry the request` with `Retry-After`, on every route.',
  'Idempotency-Key belongs to the principal that sent it: the API key (with the access tokens minted from it), or one team member. Another principal of the same account using the same key is a separate request. Stored answers are kept 24 hours sealed with AES-256-GCM (IDEMPOTENCY_REPLAY_SECRET, else derived from JWT_SECRET), since they can hold signing URLs. A request holds its key by a 10-second lease it renews while it runs: if its process dies, a retry with the key runs after at most 10 seconds instead of waiting.',
  'Team members: a person (one e-mail) can be linked to several vendors; each link is that vendor’s alone (names, role, role_options, vendor_user_id, optional_metadata). A notary’s commission (state, county, number, expiry, name as commissioned) and seal are the notary’s: written by the first vendor whose invite onboards them (automatic onboarding) or by the notary (POST /notary/onboarding), never changed by another vendor’s invite (`ignored_fields` says what was not applied). `state`, `county` and the commission in team responses are those public commission facts; `onboarding_status` is `complete` when a commission is on file, else `pending`.',
  'Unlinking ends one vendor’s link only. The person becomes a free account, and a child notary account gets the e-mail suffix, only when no other vendor still links them.',
  'A team notary can be named only with a commission on file that is unexpired on the day of the act (the scheduled day for notarize_later), else 403 `Invalid session_notary_email`; `start` answers 409 `Session cannot be started: the notary’s commission expired on …` when it lapsed meanwhile. Network notaries with an expired commission are never assigned.',
  '`x-request-id` from the caller is echoed when it is 1-128 characters of letters, digits and `._:-`; otherwise one is generated.',
];
