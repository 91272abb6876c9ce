import Joi from 'joi';
import { stateCode } from '../../core/usStates';

/** A US state, DC or territory by name or USPS code, in any letter case; validated to its code. */
export const usState = Joi.string()
  .custom((value: string, helpers) => stateCode(value) ?? helpers.error('any.invalid'))
  .rule({ message: { 'any.invalid': '{{#label}} must be the name or abbreviation of a US state' } });
