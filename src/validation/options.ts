import type Joi from 'joi';

/** How every request schema is applied: the first failure answers, unknown keys are dropped, labels bare. */
export const VALIDATION_OPTIONS: Joi.ValidationOptions = {
  abortEarly: true,
  stripUnknown: true,
  errors: { wrap: { label: false } },
};
