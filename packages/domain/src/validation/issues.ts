import type { z } from 'zod';
import { validationText } from './messages.ts';

/** One rejected field, as the server answers it and the console shows it. */
export interface FieldIssue {
  /** Dotted path of the field, e.g. `name` or `loginOptions.primary`; empty for the whole body. */
  field: string;
  /** Message key from the catalogue (`validation.required`, …). */
  code: string;
  /** English text of the message. */
  message: string;
}

export function toFieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => {
    const code = issue.message.startsWith('validation.') ? issue.message : 'validation.invalid_value';
    return { field: issue.path.map(String).join('.'), code, message: validationText(code) };
  });
}
