import type Joi from 'joi';
import parse from 'joi-to-json';
import { BASE64_DOC_JSON_SCHEMA } from '../../validation/base64Doc';

export type JsonSchema = Record<string, unknown>;

/** joi-to-json names an extension's type as its own; a `base64Doc` is, on the wire, a base64 string. */
function withWireTypes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withWireTypes);
  if (!value || typeof value !== 'object') return value;
  const schema = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withWireTypes(item)]));
  return schema.type === 'base64Doc' ? { ...schema, ...BASE64_DOC_JSON_SCHEMA } : schema;
}

const fromDescription = (description: unknown): JsonSchema =>
  withWireTypes(
    parse({ describe: () => description } as unknown as Joi.Schema, 'open-api-3.1'),
  ) as JsonSchema;

// Joi's base64() with its defaults: the standard alphabet, padded.
const PADDED_BASE64 = '/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/';

interface Rule {
  name: string;
  args?: Record<string, unknown>;
}

interface Base64Options {
  paddingRequired?: boolean;
  urlSafe?: boolean;
}

type Description = Record<string, unknown> & {
  type?: string;
  flags?: Record<string, unknown>;
  rules?: Rule[];
  allow?: unknown[];
};

// Parts of a Joi description that hold the caller's data (examples, defaults, allowed values), not schemas.
const DATA_KEYS = new Set(['flags', 'allow', 'invalid', 'examples', 'metas', 'notes', 'tags']);

/**
 * Joi refuses by default what joi-to-json does not write down: an empty string (unless the schema allows
 * ''), a number beyond ±2^53 - 1, base64 that is not padded. And the service accepts unknown keys
 * (VALIDATION_OPTIONS strips them) where joi-to-json says `additionalProperties: false`. Written into
 * the description, so a client or a fuzzer that trusts the document sends what the service takes.
 */
function asValidated(description: Description): Description {
  const rules = description.rules ?? [];
  const has = (name: string, sign?: string) =>
    rules.some((rule) => rule.name === name || (rule.name === 'sign' && rule.args?.sign === sign));
  const bound = (name: string, limit: number) => ({ name, args: { limit } });
  const implied: Rule[] = [];
  if (description.type === 'string') {
    const allowsEmpty = description.flags?.only || description.allow?.includes('');
    if (!allowsEmpty && !has('min') && !has('length')) implied.push(bound('min', 1));
    const base64 = rules.find((rule) => rule.name === 'base64')?.args?.options as Base64Options | undefined;
    if (base64?.paddingRequired !== false && base64?.urlSafe === false)
      implied.push({ name: 'pattern', args: { regex: PADDED_BASE64 } });
  }
  if (description.type === 'number' && !description.flags?.unsafe) {
    if (!has('min') && !has('greater', 'positive')) implied.push(bound('min', -Number.MAX_SAFE_INTEGER));
    if (!has('max') && !has('less', 'negative')) implied.push(bound('max', Number.MAX_SAFE_INTEGER));
  }
  if (implied.length) description.rules = [...rules, ...implied];
  if (description.type === 'object' && description.flags?.unknown === undefined)
    description.flags = { ...description.flags, unknown: true };
  return description;
}

/**
 * A JSON Schema pattern has no flags (and is read as Unicode): joi-to-json would keep a Joi regex's
 * `/u` or `/i` as text no value can match, so `u` is dropped and any other flag refused at build.
 */
function withJsonPattern(description: Description): Description {
  if (!Array.isArray(description.rules)) return description;
  const rules = description.rules.map((rule) => {
    const regex = rule.name === 'pattern' ? rule.args?.regex : undefined;
    const [, source, flags] = typeof regex === 'string' ? (/^\/(.*)\/([a-z]*)$/s.exec(regex) ?? []) : [];
    if (!flags) return rule;
    if (flags !== 'u') throw new Error(`The pattern ${regex} has flags JSON Schema cannot state`);
    return { ...rule, args: { ...rule.args, regex: `/${source}/` } };
  });
  return { ...description, rules };
}

function mapDescription(node: unknown, visit: (description: Description) => Description): unknown {
  if (Array.isArray(node)) return node.map((item) => mapDescription(item, visit));
  if (!node || typeof node !== 'object') return node;
  return visit(
    Object.fromEntries(
      Object.entries(node).map(([key, value]) => [
        key,
        DATA_KEYS.has(key) ? value : mapDescription(value, visit),
      ]),
    ),
  );
}

/** What the service answers: the Joi schema as joi-to-json reads it. */
export const toSchema = (schema: Joi.Schema): JsonSchema =>
  fromDescription(mapDescription(schema.describe(), withJsonPattern));

/** What the service accepts: the Joi schema, with what Joi enforces on its own made explicit. */
export const toRequestSchema = (schema: Joi.Schema): JsonSchema =>
  fromDescription(mapDescription(schema.describe(), (node) => asValidated(withJsonPattern(node))));
