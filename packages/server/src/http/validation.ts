import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { toFieldIssues, type FieldIssue } from '@latchkey/domain';

/** A request that failed its contract schema; carries the spec §5 messages per field. */
export class RequestValidationError extends Error {
  readonly issues: FieldIssue[];
  readonly statusCode = 400;
  constructor(error: z.ZodError) {
    super('Invalid request');
    this.name = 'RequestValidationError';
    this.issues = toFieldIssues(error);
  }
}

/**
 * Validates params, query and body with the contract's zod schemas and keeps the parsed (trimmed,
 * defaulted) value. Failures keep the ZodError's issues, so the error handler can answer with
 * `toFieldIssues` (docs/decisions/0005).
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data: unknown) => {
    const result = schema.safeParse(data);
    return result.success ? { value: result.data } : { error: new RequestValidationError(result.error) };
  };
