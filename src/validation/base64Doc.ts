import Joi from 'joi';
import { Base64Upload } from '../documents/base64Upload';

/** The Joi type of a `base64Doc` field: the body parser has already decoded its text into a Base64Upload. */
const withBase64Doc = Joi.extend((joi) => ({
  type: 'base64Doc',
  base: joi.any(),
  messages: {
    'base64Doc.base': '{{#label}} must be a string',
    'base64Doc.empty': '{{#label}} is not allowed to be empty',
  },
  validate(value: unknown, helpers) {
    if (!(value instanceof Base64Upload)) return { value, errors: helpers.error('base64Doc.base') };
    if (value.encodedLength === 0) return { value, errors: helpers.error('base64Doc.empty') };
    return { value };
  },
})) as typeof Joi & { base64Doc(): Joi.AnySchema<Base64Upload> };

export const base64Doc = () => withBase64Doc.base64Doc();

/** How the OpenAPI document shows the type: what the client sends, a string of base64. */
export const BASE64_DOC_JSON_SCHEMA = { type: 'string', contentEncoding: 'base64', minLength: 1 };
