/**
 * What the domain says when it refuses a request or cannot serve it. The domain knows nothing of HTTP:
 * `src/http/middleware/errors.ts` is the one place that turns a kind into a status and the spec's body.
 */
export type DomainErrorKind =
  /** The request cannot be read (syntax, shape, a missing required part). */
  | 'malformed'
  /** The request is understood and its values are invalid. */
  | 'invalid'
  | 'unauthenticated'
  /** Refused: not this caller's to do, or a rule of the spec that answers with a refusal. */
  | 'refused'
  | 'not_found'
  /** Not in the state the request needs; `retryAfterSeconds` when waiting will change that. */
  | 'conflict'
  | 'gone'
  | 'too_large'
  | 'unsupported_media'
  /** Too many requests; `retryAfterSeconds` says when the next one is accepted. */
  | 'rate_limited'
  /** A dependency is unreachable or too slow: nothing was changed, and the same request may be retried. */
  | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** Fields the spec's failure body carries beside its message. */
    readonly details: Record<string, unknown> = {},
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export const malformed = (message: string) => new DomainError('malformed', message);
export const invalid = (message: string, details?: Record<string, unknown>) =>
  new DomainError('invalid', message, details);
export const unauthenticated = () => new DomainError('unauthenticated', 'Unauthorized');
export const refused = (message: string, details?: Record<string, unknown>) =>
  new DomainError('refused', message, details);
export const notFound = (message: string) => new DomainError('not_found', message);
export const conflict = (message: string, retryAfterSeconds?: number) =>
  new DomainError('conflict', message, {}, retryAfterSeconds);
export const gone = (message: string, details?: Record<string, unknown>) =>
  new DomainError('gone', message, details);
export const tooLarge = (message: string) => new DomainError('too_large', message);
export const unsupportedMedia = (message: string) => new DomainError('unsupported_media', message);
export const rateLimited = (retryAfterSeconds: number) =>
  new DomainError('rate_limited', 'Too many requests; retry later', {}, retryAfterSeconds);
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
/** What a caller reads when a dependency is unreachable: nothing was done, and the same request may be sent again. */
export const UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable; retry the request';
export const unavailable = (message: string) =>
  new DomainError('unavailable', message, {}, UNAVAILABLE_RETRY_AFTER_SECONDS);
