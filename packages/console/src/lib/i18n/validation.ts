import { isValidationMessageKey, type ValidationMessageKey } from '@latchkey/domain';

/** The catalogue key of a validation issue code (schema message or server issue); unknown codes read as invalid. */
export function validationKey(code: string): ValidationMessageKey {
  return isValidationMessageKey(code) ? code : 'validation.invalid_value';
}
