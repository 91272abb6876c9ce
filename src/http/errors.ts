/**
 * Errors a route throws on purpose. The error middleware renders them in the spec's shape
 * `{response:'Fail', response_message, ...fields}`; anything else is a 500 without details.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const unauthorized = () => new HttpError(401, 'Unauthorized');
export const notFound = (message: string) => new HttpError(404, message);
export const serviceUnavailable = (message: string) =>
  new HttpError(503, message, {}, { 'Retry-After': '5' });
