import Joi from 'joi';

/**
 * Whether text holds what PostgreSQL cannot store: NUL (text and jsonb refuse it) or a UTF-16 half
 * without its pair (no UTF-8 exists for it). Native checks, so a document's base64 costs little.
 */
const unstorable = (text: string) => text.includes('\u0000') || !text.isWellFormed();

/** Control characters: they break the seal's SVG (XML) and have no place in a name or a number. */
const CONTROL = /\p{Cc}/u;

/**
 * A one-line text field (names, counties, commission numbers): trimmed, bounded, and free of control
 * characters, which cannot be printed on a seal or a certificate.
 */
export const plainText = (max: number) =>
  Joi.string()
    .trim()
    .max(max)
    .custom((value: string, helpers) => (CONTROL.test(value) ? helpers.error('string.control') : value))
    .rule({ message: { 'string.control': '{{#label}} must not contain control characters' } });

type Json = unknown;

interface Visit {
  value: Json;
  key?: string | number;
  parent?: Visit;
}

const pathOf = (visit: Visit): Array<string | number> => {
  const path: Array<string | number> = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent) path.unshift(at.key!);
  return path;
};

/**
 * The path of the first string, as key or value, that PostgreSQL could not store, anywhere in a parsed
 * JSON value; undefined when there is none. Walks iteratively and builds a path only for what it finds,
 * so neither the depth nor the size of a value costs more than one visit of each member.
 */
export function unstorableTextPath(value: Json): Array<string | number> | undefined {
  const pending: Visit[] = [{ value }];
  while (pending.length) {
    const visit = pending.pop()!;
    const current = visit.value;
    if (typeof current === 'string') {
      if (unstorable(current)) return pathOf(visit);
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => pending.push({ value: item, key: index, parent: visit }));
    } else if (
      current &&
      typeof current === 'object' &&
      Object.getPrototypeOf(current) === Object.prototype
    ) {
      // Only parsed JSON objects: a decoded upload (a Base64Upload and its bytes) is not text.
      for (const [key, item] of Object.entries(current)) {
        if (unstorable(key)) return [...pathOf(visit), key];
        pending.push({ value: item, key, parent: visit });
      }
    }
  }
  return undefined;
}

/** The failure of `unstorableTextPath` as a Joi error, so each route reports it in its own shape. */
export function unstorableTextError(path: Array<string | number>, original: unknown): Joi.ValidationError {
  const label = path.length ? path.join('.') : 'value';
  const message = `${label} must not contain NUL characters or unpaired UTF-16 surrogates`;
  return new Joi.ValidationError(
    message,
    [
      {
        message,
        path,
        type: 'string.unstorable',
        context: { label, key: String(path[path.length - 1] ?? '') },
      },
    ],
    original,
  );
}
