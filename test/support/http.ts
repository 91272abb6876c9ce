import { AssertionError } from 'node:assert';
import { contractViolation } from './contract';
import { testEnvironment } from './environment';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  method?: string;
  /** Sent as `Authorization: Bearer <auth>` unless `bare` is set. */
  auth?: string;
  bare?: boolean;
  body?: unknown;
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
}

/** A request to the API under test, through real HTTP; an answer the OpenAPI document does not describe fails. */
export async function request<T = any>(path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.auth) headers.authorization = opts.bare ? opts.auth : `Bearer ${opts.auth}`;
  let body: string | Uint8Array | undefined = opts.rawBody;
  if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const method = opts.method ?? (body !== undefined ? 'POST' : 'GET');
  const response = await fetch(`${testEnvironment().apiUrl}${path}`, {
    method,
    headers,
    body,
  });
  const text = await response.text();
  let parsed: unknown = text;
  if (response.headers.get('content-type')?.includes('json')) parsed = JSON.parse(text);
  const violation = contractViolation(
    method,
    new URL(response.url),
    response.status,
    response.headers.get('content-type'),
    parsed,
  );
  // Every test's answers are held to the OpenAPI document, so it describes what integrators get.
  if (violation)
    throw new AssertionError({ message: `The answer departs from the OpenAPI document: ${violation}` });
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}
