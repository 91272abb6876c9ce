import Joi from 'joi';
import { refused } from '../../domain/errors';

/** What a download through a signed, expiring URL (no key) takes, and how a bad one is refused. */
export const SIGNED_DOWNLOAD = {
  auth: 'none' as const,
  params: Joi.object({ id: Joi.string().max(100) }),
  query: Joi.object({
    expires: Joi.string().max(20).required(),
    signature: Joi.string().max(100).required(),
  }),
  onInvalid: () => refused('This download link is invalid or has expired'),
};
