import type { JsonSchema } from './jsonSchema';

/**
 * An example that fits `schema`: its own `examples`, else built from its type, formats and enums. Used
 * for answers no example is written out for (see examples.ts).
 */
export function exampleOf(schema: JsonSchema, name = ''): unknown {
  const s = schema as {
    examples?: unknown[];
    const?: unknown;
    enum?: unknown[];
    anyOf?: JsonSchema[];
    oneOf?: JsonSchema[];
    type?: string | string[];
    format?: string;
    properties?: Record<string, JsonSchema>;
    items?: JsonSchema;
    minimum?: number;
    default?: unknown;
  };
  if (s.examples?.length) return s.examples[0];
  if ('const' in s) return s.const;
  if (s.enum?.length) return s.enum.find((v) => v !== null) ?? null;
  const variants = s.anyOf ?? s.oneOf;
  if (variants?.length)
    return exampleOf(variants.find((v) => (v as { type?: string }).type !== 'null') ?? variants[0], name);
  const type = Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') ?? 'null') : s.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(s.properties ?? {}).map(([key, value]) => [key, exampleOf(value, key)]),
      );
    case 'array':
      return s.items ? [exampleOf(s.items, name)] : [];
    case 'integer':
    case 'number':
      return typeof s.default === 'number' ? s.default : Math.max(1, s.minimum ?? 1);
    case 'boolean':
      return typeof s.default === 'boolean' ? s.default : true;
    case 'null':
      return null;
    case 'string':
      return stringExample(s.format, name);
    default:
      return s.properties ? exampleOf({ ...schema, type: 'object' }, name) : null;
  }
}

const FORMAT_EXAMPLES: Record<string, string> = {
  uuid: '5f0c2a4e-8b1d-4c59-9a51-2d7e6b8f1c30',
  'date-time': '2026-11-23T15:04:05.000Z',
  date: '2026-11-23',
  uri: 'https://notary.example.com/resource',
  email: 'sam.signer@example.com',
};

function stringExample(format: string | undefined, name: string): string {
  if (format && FORMAT_EXAMPLES[format]) return FORMAT_EXAMPLES[format];
  if (/email/.test(name)) return FORMAT_EXAMPLES.email;
  if (/(^|_)url$/.test(name)) return FORMAT_EXAMPLES.uri;
  if (/(^|_)(id|ids)$/.test(name)) return FORMAT_EXAMPLES.uuid;
  if (/(_at|_on|_until)$/.test(name)) return FORMAT_EXAMPLES['date-time'];
  return name ? name.replace(/_/g, ' ') : 'text';
}
